import { ScheduleService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

export const ScheduleHandlers = HttpApiBuilder.group(
  ServedApi,
  "schedule",
  Effect.fn(function*(handlers) {
    const schedule = yield* ScheduleService
    return handlers
      .handle(
        "sessionsOfAthlete",
        ({ params }) => schedule.sessionsOfAthlete(params.id).pipe(problems)
      )
      .handle("allSessions", () => schedule.allSessions().pipe(problems))
      .handle(
        "activitiesOfSession",
        ({ params }) => schedule.activitiesOfSession(params.id).pipe(problems)
      )
      .handle(
        "sessionsAfter",
        ({ params }) => schedule.sessionsOfAthleteAfter(params.id, params.date).pipe(problems)
      )
      .handle(
        "sessionsBetween",
        ({ params }) => schedule.sessionsOfAthleteBetween(params.id, params.startDate, params.endDate).pipe(problems)
      )
  })
)
