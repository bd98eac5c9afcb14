import { Schema } from "effect"
import { AthleteId, SessionId } from "../shared/Ids.ts"
import { LocalDateTime } from "../shared/LocalDateTime.ts"
import { LongText } from "../shared/Text.ts"

/** What an athlete answers to "are you coming?". */
export const ReplyAnswer = Schema.Literals(["yes", "no", "maybe"])
export type ReplyAnswer = typeof ReplyAnswer.Type

/**
 * Where a reply leaves the athlete: `confirmed` (a yes within the capacity), `waiting` (a yes
 * beyond it, on the waiting list in reply order), `maybe`, or `declined` (a no).
 */
export const ReplyState = Schema.Literals(["confirmed", "waiting", "maybe", "declined"])
export type ReplyState = typeof ReplyState.Type

/** How many athletes a session takes; none means no limit. */
export const Capacity = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1_000_000))

/** Whether a reply is for one session, or for it and every later occurrence of its series. */
export const ReplyScope = Schema.Literals(["one", "following"])
export type ReplyScope = typeof ReplyScope.Type

/** A reply as given: the answer and, when the athlete gives one, its reason. */
export class ReplyInput extends Schema.Class<ReplyInput>("ReplyInput")({
  answer: ReplyAnswer,
  reason: Schema.NullOr(LongText)
}) {}

/** An athlete's reply to a session, and where it leaves the athlete. */
export class Reply extends Schema.Class<Reply>("Reply")({
  sessionId: SessionId,
  athleteId: AthleteId,
  answer: ReplyAnswer,
  reason: Schema.NullOr(Schema.String),
  state: ReplyState,
  /** The place on the waiting list (1 is next), for a `waiting` reply only. */
  waitingPosition: Schema.NullOr(Schema.Int)
}) {}

/**
 * A coach's settings of a session's replies; a key left out keeps its value. `replyCutoff` is a
 * wall-clock time at the club, as a session's `creneau`.
 */
export class AttendanceSettings extends Schema.Class<AttendanceSettings>("AttendanceSettings")({
  capacity: Schema.optionalKey(Schema.NullOr(Capacity)),
  replyCutoff: Schema.optionalKey(Schema.NullOr(LocalDateTime))
}) {}

/**
 * A session's replies: its capacity and cut-off, how many are confirmed and waiting, and every
 * reply, the confirmed ones first in reply order, then the waiting list in its order, then the
 * maybes and the declines by athlete.
 */
export class SessionReplies extends Schema.Class<SessionReplies>("SessionReplies")({
  sessionId: SessionId,
  capacity: Schema.NullOr(Capacity),
  replyCutoff: Schema.NullOr(LocalDateTime),
  confirmed: Schema.Int,
  waiting: Schema.Int,
  replies: Schema.Array(Reply)
}) {}
