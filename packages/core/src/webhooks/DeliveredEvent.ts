import { Schema } from "effect"
import { ReplyAnswer, ReplyState } from "../attendance/Attendance.ts"
import { Instant, PresenceStatus } from "../attendance/Presence.ts"
import { AthleteId, GroupId, MembershipId, SessionId } from "../shared/Ids.ts"
import { CalendarDate } from "../shared/LocalDateTime.ts"
import { EventId } from "./Webhook.ts"

/**
 * The bodies a webhook receives, one Schema per event type: the catalogue of docs/events.md is
 * checked against these (apps/server/test/webhooks/standardWebhooks.test.ts decodes what a
 * receiver got with `DeliveredEvent`). Each names its stream: a session's events `sessionId`, a
 * group's `groupId`.
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

/** Any body a webhook receives, told apart by `type`. */
export const DeliveredEvent = Schema.Union([
  ReplyEvent,
  CancellationEvent,
  PromotionEvent,
  PresenceEvent,
  MembershipStartedEvent,
  MembershipEndedEvent
])
export type DeliveredEvent = typeof DeliveredEvent.Type
