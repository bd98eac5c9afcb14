import { Clock, Context, Effect, Layer, Option } from "effect"
import type { AttendanceSettings, ReplyInput, ReplyScope } from "./Attendance.ts"
import { plusDays, wallClockAt } from "../shared/clubTime.ts"
import { EntityNotFound, InvalidValue, SessionNotStarted } from "../shared/Errors.ts"
import { type CalendarDate, startOfDay } from "../shared/LocalDateTime.ts"
import { AttendanceFigures, presenceCsv, type PresenceInput } from "./Presence.ts"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import { CurrentActor } from "../shared/Actor.ts"
import { authorize, type Operation } from "../shared/Permissions.ts"
import { AttendanceRepository } from "./AttendanceRepository.ts"
import { SessionRepository } from "../sessions/SessionRepository.ts"
import { GuardianshipRepository } from "../membership/GuardianshipRepository.ts"
import { traced } from "../shared/traced.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import { InvitationRepository } from "../membership/InvitationRepository.ts"
import { groupCoachesOf } from "../membership/groupCoaches.ts"
import { InvitedPage, InvitedSessionPage } from "../membership/Invitation.ts"
import { CursorSeal } from "../shared/CursorSeal.ts"
import { openCursor, parsedJson } from "../shared/Cursor.ts"
import type { PageRequest } from "../planning/PlanningService.ts"
import { defaultPageLimit, readSessionPosition, sessionPositionText } from "../sessions/SessionPage.ts"
import { AthleteId as AthleteIdSchema } from "../shared/Ids.ts"
import { Schema } from "effect"

const decodeAthlete = Schema.decodeUnknownOption(AthleteIdSchema)

/** The athlete a cursor of "who is invited" names; undefined for any other text. */
const readAthlete = (text: string): AthleteId | undefined => Option.getOrUndefined(decodeAthlete(parsedJson(text)))

const make = Effect.gen(function*() {
  const repository = yield* AttendanceRepository
  const sessions = yield* SessionRepository
  const guardianships = yield* GuardianshipRepository
  const invitations = yield* InvitationRepository
  const cursors = yield* CursorSeal

  const clubNow = Effect.gen(function*() {
    const { timeZone } = yield* ScheduleSettings
    return wallClockAt(timeZone, yield* Clock.currentTimeMillis)
  })

  /**
   * The role table's rule on the session acted on: a coach acts on the sessions it coaches (and on
   * those without a coach, and those of a group it coaches or of a group below one), not on another
   * coach's (`coachOwns` in the table).
   */
  const authorizeOnSession = (operation: Operation, sessionId: SessionId) =>
    Effect.gen(function*() {
      // The role first, before anything is read; then whose the session is.
      yield* authorize(operation)
      const session = yield* sessions.findById(sessionId)
      const subject = `session ${sessionId}`
      yield* authorize(
        operation,
        Option.isSome(session)
          ? {
            coachId: session.value.coachId,
            ...(yield* groupCoachesOf(invitations, session.value)),
            subject
          }
          : {}
      )
      if (Option.isNone(session)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      return session.value
    })

  /** The club's day now. */
  const clubToday = Effect.map(clubNow, (now) => now.slice(0, 10) as CalendarDate)

  /** The period `[from, to]` as the wall-clock times `[from 00:00, the day after to 00:00)`; `to` before `from` is refused. */
  const period = (from: CalendarDate, to: CalendarDate) =>
    to < from
      ? Effect.fail(new InvalidValue({ field: "to", reason: `${to} is before from (${from})` }))
      : Effect.succeed({ from: startOfDay(from), until: plusDays(startOfDay(to), 1) })

  return {
    /**
     * Records who came (the session's coach), once the session has started (a session without a
     * `creneau` has no start to wait for). An athlete marked twice in one request is refused.
     */
    mark: traced("AttendanceService.mark")(function*(sessionId: SessionId, input: PresenceInput) {
      const session = yield* authorizeOnSession("attendance.mark", sessionId)
      const actor = yield* CurrentActor
      const seen = new Set<number>()
      for (const mark of input.marks) {
        if (seen.has(mark.athleteId)) {
          return yield* new InvalidValue({ field: "marks", reason: `athlete ${mark.athleteId} is marked twice` })
        }
        seen.add(mark.athleteId)
      }
      const now = yield* clubNow
      if (session.creneau !== null && session.creneau > now) {
        return yield* new SessionNotStarted({ sessionId, startsAt: session.creneau })
      }
      return yield* repository.mark(sessionId, input.marks, actor.userId, yield* Clock.currentTimeMillis)
    }),
    /** A session's marks and their history. */
    presence: traced("AttendanceService.presence")(function*(sessionId: SessionId) {
      yield* authorize("attendance.presence")
      const found = yield* repository.presence(sessionId)
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      return found.value
    }),
    /** Attendance rates by athlete and by group over a period. */
    figures: traced("AttendanceService.figures")(function*(from: CalendarDate, to: CalendarDate) {
      yield* authorize("attendance.figures")
      const bounds = yield* period(from, to)
      const counted = yield* repository.figures(bounds.from, bounds.until, null)
      return new AttendanceFigures({ from, to, ...counted })
    }),
    /** One athlete's attendance over a period (coaches, admins, and the athlete itself). */
    athleteFigures: traced("AttendanceService.athleteFigures")(
      function*(athleteId: AthleteId, from: CalendarDate, to: CalendarDate) {
        yield* authorize("attendance.athleteFigures", { athleteId })
        const bounds = yield* period(from, to)
        const counted = yield* repository.figures(bounds.from, bounds.until, athleteId)
        return new AttendanceFigures({ from, to, ...counted })
      }
    ),
    /** Every mark of a season (the sessions of a period) as CSV. */
    exportSeason: traced("AttendanceService.exportSeason")(function*(from: CalendarDate, to: CalendarDate) {
      yield* authorize("attendance.export")
      const bounds = yield* period(from, to)
      return presenceCsv(yield* repository.presenceLines(bounds.from, bounds.until))
    }),
    /** Sets a session's capacity and reply cut-off (its coach); a grown capacity confirms the first waiting. */
    configure: traced("AttendanceService.configure")(function*(sessionId: SessionId, settings: AttendanceSettings) {
      yield* authorizeOnSession("attendance.configure", sessionId)
      return yield* repository.configure(sessionId, settings)
    }),
    /**
     * Who is invited to a session (issue 41): its athletes and its group's members on its day, in
     * athlete id order, one page of `limit` (`defaultPageLimit` when absent) after `cursor`. One
     * statement: a row more than the page tells whether another follows.
     */
    invited: traced("AttendanceService.invited")(function*(sessionId: SessionId, request: PageRequest = {}) {
      yield* authorize("attendance.read")
      const limit = request.limit ?? defaultPageLimit
      const after = request.cursor === undefined ? null : yield* openCursor(cursors, request.cursor, readAthlete)
      const found = yield* invitations.invited(sessionId, yield* clubToday, after, limit + 1)
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      const items = found.value.slice(0, limit)
      const last = items.at(-1)
      return new InvitedPage({
        items,
        nextCursor: found.value.length > limit && last !== undefined
          ? cursors.seal(JSON.stringify(last.athleteId)) as InvitedPage["nextCursor"]
          : null
      })
    }),
    /**
     * The sessions of the days `from` to `to` an athlete is invited to (issue 41): its own and its
     * groups' on the days of its memberships, in (`creneau`, id) order, one page of `limit` after
     * `cursor`. One statement.
     */
    athleteSessions: traced("AttendanceService.athleteSessions")(
      function*(athleteId: AthleteId, from: CalendarDate, to: CalendarDate, request: PageRequest = {}) {
        yield* authorize("attendance.read")
        const bounds = yield* period(from, to)
        const limit = request.limit ?? defaultPageLimit
        const after = request.cursor === undefined
          ? undefined
          : yield* openCursor(cursors, request.cursor, readSessionPosition)
        const read = yield* invitations.sessionsOf(athleteId, bounds.from, bounds.until, after, limit + 1)
        const items = read.slice(0, limit)
        const last = items.at(-1)
        return new InvitedSessionPage({
          items,
          nextCursor: read.length > limit && last !== undefined
            ? cursors.seal(sessionPositionText({ creneau: last.creneau, id: last.sessionId })) as InvitedSessionPage[
              "nextCursor"
            ]
            : null
        })
      }
    ),
    /** A session's replies, its waiting list in order. */
    replies: traced("AttendanceService.replies")(function*(sessionId: SessionId) {
      yield* authorize("attendance.read")
      const found = yield* repository.replies(sessionId)
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
      return found.value
    }),
    /**
     * An athlete's reply, by the athlete itself, one of its guardians or a coach, to the session, or
     * to it and the following occurrences of its series (`AttendanceRepository.reply`).
     */
    reply: traced("AttendanceService.reply")(
      function*(athleteId: AthleteId, sessionId: SessionId, input: ReplyInput, scope: ReplyScope) {
        // The athlete replies for itself, its guardians for it (any role: the link is read first, one
        // statement, and a caller refused with it reads nothing more); a coach for the athletes of
        // the sessions it coaches.
        const guardians = Option.getOrElse(yield* guardianships.guardiansOf(athleteId), () => [])
        yield* authorize("attendance.reply", { athleteId, guardians })
        const session = yield* sessions.findById(sessionId)
        const actor = yield* authorize("attendance.reply", {
          athleteId,
          guardians,
          ...(Option.isSome(session)
            ? {
              coachId: session.value.coachId,
              ...(yield* groupCoachesOf(invitations, session.value)),
              subject: `session ${sessionId}`
            }
            : {})
        })
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
