import { ScheduleService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { problems } from "./problems.ts"
import { toSummary } from "./toDto.ts"

const summaries = <Id extends number>(all: ReadonlyArray<{ readonly id: Id; readonly name: string | null }>) =>
  all.map(toSummary)

export const ScheduleHandlers = HttpApiBuilder.group(
  ClubApi,
  "schedule",
  Effect.fn(function*(handlers) {
    const schedule = yield* ScheduleService
    return handlers
      .handle(
        "sessionsOfAthlete",
        ({ params }) => schedule.sessionsOfAthlete(params.id).pipe(Effect.map(summaries), problems)
      )
      .handle("allSessions", () => schedule.allSessions().pipe(Effect.map(summaries), problems))
      .handle(
        "activitiesOfSession",
        ({ params }) => schedule.activitiesOfSession(params.id).pipe(Effect.map(summaries), problems)
      )
      .handle(
        "sessionsAfter",
        ({ params }) => schedule.sessionsOfAthleteAfter(params.id, params.date).pipe(Effect.map(summaries), problems)
      )
      .handle(
        "sessionsBetween",
        ({ params }) =>
          schedule.sessionsOfAthleteBetween(params.id, params.startDate, params.endDate).pipe(
            Effect.map(summaries),
            problems
          )
      )
  })
)
