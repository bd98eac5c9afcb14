import { ScheduleService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { problems } from "./problems.ts"
import { toSummary } from "./toDto.ts"

const summaries = Effect.map((all: ReadonlyArray<{ readonly id: number; readonly name: string | null }>) => all.map(toSummary))

export const ScheduleHandlers = HttpApiBuilder.group(ClubApi, "schedule", Effect.fn(function*(handlers) {
  const schedule = yield* ScheduleService
  return handlers
    .handle("sessionsOfAthlete", ({ params }) => schedule.sessionsOfAthlete(params.id).pipe(summaries, problems))
    .handle("allSessions", () => schedule.allSessions().pipe(summaries, problems))
    .handle("activitiesOfSession", ({ params }) => schedule.activitiesOfSession(params.id).pipe(summaries, problems))
    .handle("sessionsAfter", ({ params }) => schedule.sessionsOfAthleteAfter(params.id, params.date).pipe(summaries, problems))
    .handle("sessionsBetween", ({ params }) =>
      schedule.sessionsOfAthleteBetween(params.id, params.startDate, params.endDate).pipe(summaries, problems))
}))
