import { Schema } from "effect"
import { ReplyAnswer, ReplyState } from "../attendance/Attendance.ts"
import { Instant, PresenceStatus } from "../attendance/Presence.ts"
import {
  ActivityId,
  AdminId,
  AthleteId,
  CoachId,
  GroupId,
  MembershipId,
  SeriesId,
  SessionId,
  UserId
} from "../shared/Ids.ts"
import { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import { Role } from "../shared/Role.ts"
import { EventId } from "./Webhook.ts"

/**
 * The bodies a webhook receives, one Schema per event type: the catalogue of docs/events.md is
 * checked against these (apps/server/test/webhooks/standardWebhooks.test.ts decodes what a
 * receiver got with `DeliveredEvent`). Each names its stream: a session's events `sessionId`, a
 * group's `groupId`; the club's stream (series, users, a detached activity) names neither.
 */
const sessionEvent = <Type extends string, Data extends Schema.Struct.Fields>(type: Type, data: Data) =>
  Schema.Struct({
    id: EventId,
    type: Schema.Literal(type),
    sessionId: SessionId,
    occurredAt: Instant,
    data: Schema.Struct(data)
  })

const groupEvent = <Type extends string, Data extends Schema.Struct.Fields>(type: Type, data: Data) =>
  Schema.Struct({
    id: EventId,
    type: Schema.Literal(type),
    groupId: GroupId,
    occurredAt: Instant,
    data: Schema.Struct(data)
  })

const clubEvent = <Type extends string, Data extends Schema.Struct.Fields>(type: Type, data: Data) =>
  Schema.Struct({
    id: EventId,
    type: Schema.Literal(type),
    occurredAt: Instant,
    data: Schema.Struct(data)
  })

const replyData = {
  athleteId: AthleteId,
  answer: ReplyAnswer,
  reason: Schema.NullOr(Schema.String),
  state: ReplyState
}

const membershipData = {
  membershipId: MembershipId,
  athleteId: AthleteId,
  from: CalendarDate,
  until: Schema.NullOr(CalendarDate)
}

/** A reply written (not a withdrawn yes). */
export const ReplyEvent = sessionEvent("reply", replyData)
/** A yes replaced by a no or a maybe. */
export const CancellationEvent = sessionEvent("cancellation", replyData)
/** A waiting athlete confirmed. */
export const PromotionEvent = sessionEvent("promotion", { athleteId: AthleteId })
/** A mark recorded or corrected. */
export const PresenceEvent = sessionEvent("presence", {
  athleteId: AthleteId,
  status: PresenceStatus,
  previousStatus: Schema.NullOr(PresenceStatus)
})
/** A membership started (`until` null). */
export const MembershipStartedEvent = groupEvent("membershipStarted", membershipData)
/** A membership ended. */
export const MembershipEndedEvent = groupEvent("membershipEnded", membershipData)

const sessionData = {
  name: Schema.NullOr(Schema.String),
  creneau: Schema.NullOr(LocalDateTime),
  /** Minutes. */
  duree: Schema.NullOr(Schema.Number),
  seriesId: Schema.NullOr(SeriesId)
}

/** A session created by itself (the seed's create, /planning's); a series' occurrences write none. */
export const SessionCreatedEvent = sessionEvent("sessionCreated", sessionData)
/** A session's values, athletes or activities edited; `previous*` are its start and length before. */
export const SessionChangedEvent = sessionEvent("sessionChanged", {
  ...sessionData,
  previousCreneau: Schema.NullOr(LocalDateTime),
  previousDuree: Schema.NullOr(Schema.Number)
})
/** A session deleted, or an occurrence of a series cancelled: the session as it was. */
export const SessionCancelledEvent = sessionEvent("sessionCancelled", {
  ...sessionData,
  groupe: Schema.NullOr(Schema.String),
  /** The session's own athletes, ascending (its group's members are invited too). */
  athleteIds: Schema.Array(AthleteId)
})
/** A series created, with its occurrences up to its first expansion. */
export const SeriesCreatedEvent = clubEvent("seriesCreated", {
  seriesId: SeriesId,
  name: Schema.NullOr(Schema.String),
  groupe: Schema.NullOr(Schema.String),
  start: LocalDateTime,
  rrule: Schema.String,
  duree: Schema.Number
})
/** A series changed from its occurrence at `from` on; `continuedBy` the new series holding them, or null. */
export const SeriesChangedEvent = clubEvent("seriesChanged", {
  seriesId: SeriesId,
  from: LocalDateTime,
  continuedBy: Schema.NullOr(SeriesId)
})
/** A series ended before `from`. */
export const SeriesCancelledEvent = clubEvent("seriesCancelled", { seriesId: SeriesId, from: LocalDateTime })

const activityData = {
  activityId: ActivityId,
  name: Schema.NullOr(Schema.String),
  theme: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Schema.Number)
}
/** An activity created, or edited (and so maybe moved: the stream is the session it is in now). */
export const ActivityCreatedEvent = sessionEvent("activityCreated", activityData)
export const ActivityChangedEvent = sessionEvent("activityChanged", activityData)
/**
 * An activity deleted, in the stream of the session it was in; one its session had detached is in
 * the club's stream, and its body names no session.
 */
export const ActivityDeletedEvent = Schema.Struct({
  id: EventId,
  type: Schema.Literal("activityDeleted"),
  sessionId: Schema.optionalKey(SessionId),
  occurredAt: Instant,
  data: Schema.Struct(activityData)
})

const userData = {
  userId: UserId,
  name: Schema.String,
  role: Role,
  coachId: Schema.NullOr(CoachId),
  athleteId: Schema.NullOr(AthleteId),
  adminId: Schema.NullOr(AdminId)
}
/** A user created: never its password, hash, tokens or email address. */
export const UserCreatedEvent = clubEvent("userCreated", userData)
/** A user edited (its name, role, links or password): the user as it is now, without secrets. */
export const UserChangedEvent = clubEvent("userChanged", userData)
export const UserDeletedEvent = clubEvent("userDeleted", { userId: UserId })
/**
 * A person erased (docs/privacy.md): only the ids of their user and linked records, so that a
 * receiver erases what it copied of them; `userId` null for an athlete without a user (decision
 * 0300). Their earlier events now carry no name or reason.
 */
export const PersonErasedEvent = clubEvent("personErased", {
  userId: Schema.NullOr(UserId),
  athleteId: Schema.NullOr(AthleteId),
  coachId: Schema.NullOr(CoachId),
  adminId: Schema.NullOr(AdminId)
})

/** Any body a webhook receives, told apart by `type`. */
export const DeliveredEvent = Schema.Union([
  ReplyEvent,
  CancellationEvent,
  PromotionEvent,
  PresenceEvent,
  MembershipStartedEvent,
  MembershipEndedEvent,
  SessionCreatedEvent,
  SessionChangedEvent,
  SessionCancelledEvent,
  SeriesCreatedEvent,
  SeriesChangedEvent,
  SeriesCancelledEvent,
  ActivityCreatedEvent,
  ActivityChangedEvent,
  ActivityDeletedEvent,
  UserCreatedEvent,
  UserChangedEvent,
  UserDeletedEvent,
  PersonErasedEvent
])
export type DeliveredEvent = typeof DeliveredEvent.Type
