import { traced } from "../shared/traced.ts"
import { Context, Effect, Layer } from "effect"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import { type CalendarDate, startOfDay } from "../shared/LocalDateTime.ts"
import { authorize } from "../shared/Permissions.ts"
import { SessionRepository } from "./SessionRepository.ts"

/**
 * The seed's athlete-session queries and the activities of a session. An athlete or session
 * that does not exist has no sessions or activities: an empty list, as the seed says for most
 * of these (and we say for the rest, so that all five behave alike).
 */
const make = Effect.gen(function*() {
  const sessions = yield* SessionRepository
  return {
    sessionsOfAthlete: traced("ScheduleService.sessionsOfAthlete")(function*(athleteId: AthleteId) {
      yield* authorize("schedule.read")
      return yield* sessions.summariesOfAthlete(athleteId, {})
    }),
    allSessions: traced("ScheduleService.allSessions")(function*() {
      yield* authorize("schedule.read")
      return yield* sessions.summaries()
    }),
    activitiesOfSession: traced("ScheduleService.activitiesOfSession")(function*(sessionId: SessionId) {
      yield* authorize("schedule.read")
      return yield* sessions.activitySummaries(sessionId)
    }),
    sessionsOfAthleteAfter: traced("ScheduleService.sessionsOfAthleteAfter")(
      function*(athleteId: AthleteId, date: CalendarDate) {
        yield* authorize("schedule.read")
        return yield* sessions.summariesOfAthlete(athleteId, { after: startOfDay(date) })
      }
    ),
    sessionsOfAthleteBetween: traced("ScheduleService.sessionsOfAthleteBetween")(
      function*(athleteId: AthleteId, start: CalendarDate, end: CalendarDate) {
        yield* authorize("schedule.read")
        return yield* sessions.summariesOfAthlete(athleteId, { after: startOfDay(start), before: startOfDay(end) })
      }
    )
  }
})

export class ScheduleService extends Context.Service<ScheduleService, Effect.Success<typeof make>>()(
  "@club/core/ScheduleService"
) {
  static readonly layer = Layer.effect(ScheduleService, make)
}
