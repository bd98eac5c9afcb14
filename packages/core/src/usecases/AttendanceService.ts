import { Clock, Context, Effect, Layer, Option } from "effect"
import type { AttendanceSettings, ReplyInput, ReplyScope } from "../domain/Attendance.ts"
import { wallClockAt } from "../domain/ClubTime.ts"
import { EntityNotFound, NotPermitted } from "../domain/Errors.ts"
import type { AthleteId, SessionId } from "../domain/Ids.ts"
import { authorize, type Operation } from "../domain/Permissions.ts"
import { AttendanceRepository } from "../ports/AttendanceRepository.ts"
import { SessionRepository } from "../ports/SessionRepository.ts"
import { traced } from "../tracing/traced.ts"
import { ScheduleSettings } from "./ScheduleSettings.ts"

const make = Effect.gen(function*() {
  const repository = yield* AttendanceRepository
  const sessions = yield* SessionRepository

  const clubNow = Effect.gen(function*() {
    const { timeZone } = yield* ScheduleSettings
    return wallClockAt(timeZone, yield* Clock.currentTimeMillis)
  })

  /**
   * The role table's rule, then the session's own: a coach acts on the sessions it coaches (and on
   * those without a coach), not on another coach's.
   */
  const authorizeOnSession = (operation: Operation, sessionId: SessionId) =>
    Effect.gen(function*() {
      const actor = yield* authorize(operation)
      const session = yield* sessions.findById(sessionId)
      if (Option.isNone(session)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      const coachId = session.value.coachId
      if (actor.role === "COACH" && coachId !== null && actor.coachId !== coachId) {
        return yield* new NotPermitted({
          operation: `${operation} on session ${sessionId}, coached by coach ${coachId}`
        })
      }
      return session.value
    })

  return {
    /** Sets a session's capacity and reply cut-off (its coach); a grown capacity confirms the first waiting. */
    configure: traced("AttendanceService.configure")(function*(sessionId: SessionId, settings: AttendanceSettings) {
      yield* authorizeOnSession("attendance.configure", sessionId)
      return yield* repository.configure(sessionId, settings)
    }),
    /** A session's replies, its waiting list in order. */
    replies: traced("AttendanceService.replies")(function*(sessionId: SessionId) {
      yield* authorize("attendance.read")
      const found = yield* repository.replies(sessionId)
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      return found.value
    }),
    /**
     * An athlete's reply, by the athlete itself or by a coach, to the session, or to it and the
     * following occurrences of its series (`AttendanceRepository.reply`).
     */
    reply: traced("AttendanceService.reply")(
      function*(athleteId: AthleteId, sessionId: SessionId, input: ReplyInput, scope: ReplyScope) {
        const actor = yield* authorize("attendance.reply", { athleteId })
        const now = yield* clubNow
        return yield* repository.reply({ sessionId, athleteId, input, scope, now, by: actor.userId })
      }
    )
  }
})

/** Replies, capacity and waiting list of sessions (issue 18). */
export class AttendanceService extends Context.Service<AttendanceService, Effect.Success<typeof make>>()(
  "@club/core/AttendanceService"
) {
  static readonly layer = Layer.effect(AttendanceService, make)
}
