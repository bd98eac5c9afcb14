import { Context, type Effect, type Option } from "effect"
import type { AttendanceSettings, Reply, ReplyInput, ReplyScope, SessionReplies } from "./Attendance.ts"
import type { EntityNotFound, InvalidValue, RepliesClosed } from "../shared/Errors.ts"
import type { AthleteId, SessionId, UserId } from "../shared/Ids.ts"
import type { AthleteAttendance, GroupAttendance, PresenceLine, PresenceMark, SessionPresence } from "./Presence.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"

/** A reply to write, with who writes it and when. */
export interface ReplyWrite {
  readonly sessionId: SessionId
  readonly athleteId: AthleteId
  readonly input: ReplyInput
  /** `following`: also every later occurrence of the session's series that invites the athlete. */
  readonly scope: ReplyScope
  /** Now, on the club's wall clock: replies close at the session's cut-off, or at its `creneau` when it has none. */
  readonly now: LocalDateTime
  /** The user who wrote it: the athlete's own, one of its guardians, or a coach's. */
  readonly by: UserId
}

/**
 * Replies to sessions, their capacity and their waiting list (issue 18). Every change of a
 * session's replies or capacity is made under that session's lock, so that two writers (two
 * instances) never both take the last place, and the waiting list is in the order the yeses were
 * written: a `yes` within the capacity is `confirmed`, beyond it `waiting`; whenever a place frees
 * (a confirmed athlete answers something else, or the capacity grows), the first waiting are
 * confirmed in the same transaction. A lower capacity confirms no one and un-confirms no one.
 * Replies and marks are of the athletes a session invites: its own, and the members of its group
 * on its day (issue 41); an athlete leaving the session's athletes loses them unless the group
 * still invites it, and an ended membership keeps them.
 */
export class AttendanceRepository extends Context.Service<AttendanceRepository, {
  /** The session's replies (`SessionReplies`' order); none for an unknown session. */
  replies(sessionId: SessionId): Effect.Effect<Option.Option<SessionReplies>>
  /** Sets the keys `settings` holds, then fills the places that are free from the waiting list. */
  configure(sessionId: SessionId, settings: AttendanceSettings): Effect.Effect<SessionReplies, EntityNotFound>
  /**
   * Writes the reply (replacing the athlete's earlier one: a yes repeated keeps its place) and
   * answers the reply of each session written, the first session's first. Refused, with nothing
   * written: an unknown session (`EntityNotFound`), an athlete the session does not invite
   * (`InvalidValue` naming `athleteId`), replies closed (`RepliesClosed`). With `following`, a later
   * occurrence that does not invite the athlete, or whose replies have closed, is left out. Invited:
   * one of the session's athletes, or a member of its group on its day (a session without a
   * creneau: the day of `now`), tested under the session's lock (docs/membership.md).
   */
  reply(write: ReplyWrite): Effect.Effect<ReadonlyArray<Reply>, EntityNotFound | InvalidValue | RepliesClosed>
  /** The session's marks (by athlete) and their history (in the order written); none for an unknown session. */
  presence(sessionId: SessionId): Effect.Effect<Option.Option<SessionPresence>>
  /**
   * Records the marks (one per athlete: the caller checks it) in one transaction, `by` the user at
   * `atEpochMs`; a mark that changes an athlete's status (or is its first) adds a history entry.
   * Refused, with nothing written: an unknown session (`EntityNotFound`), an athlete the session
   * does not invite (`InvalidValue` naming `marks`; a session without a creneau invites the members
   * of the club's day of `atEpochMs`).
   */
  mark(
    sessionId: SessionId,
    marks: ReadonlyArray<PresenceMark>,
    by: UserId,
    atEpochMs: number
  ): Effect.Effect<SessionPresence, EntityNotFound | InvalidValue>
  /**
   * The marks of the sessions whose `creneau` is in `[from, until)`, counted by athlete (ascending
   * id; only `athleteId` when given) and by the session's groupe (null first, then in code-point
   * order), each with its `attendanceRate`. One statement whatever the club's size.
   */
  figures(
    from: LocalDateTime,
    until: LocalDateTime,
    athleteId: AthleteId | null
  ): Effect.Effect<{
    readonly athletes: ReadonlyArray<AthleteAttendance>
    readonly groups: ReadonlyArray<GroupAttendance>
  }>
  /** Every mark of the sessions whose `creneau` is in `[from, until)`, by creneau, session, then athlete. One statement. */
  presenceLines(from: LocalDateTime, until: LocalDateTime): Effect.Effect<ReadonlyArray<PresenceLine>>
}>()("@club/core/AttendanceRepository") {}
