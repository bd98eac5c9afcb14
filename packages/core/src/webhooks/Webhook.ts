import { Schema } from "effect"
import { GroupId, SessionId } from "../shared/Ids.ts"
import { Instant } from "../attendance/Presence.ts"
import { isMaxCharacters, isMinCharacters } from "../shared/Text.ts"

const PositiveSafeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

export const WebhookId = PositiveSafeInt.pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type
export const EventId = PositiveSafeInt.pipe(Schema.brand("EventId"))
export type EventId = typeof EventId.Type

/** An absolute http(s) URL with a host, at most 2,000 characters. */
export const WebhookUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.isPattern(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/u, { expected: "an absolute http or https URL" })
)

/**
 * The secret a receiver checks signatures with: 16 to 200 characters, counted in code points so
 * that the OpenAPI document states the bound the server applies (a UTF-16 length of 16 is
 * documented as `minLength: 8`, the fewest code points it can be).
 */
export const WebhookSecret = Schema.String.check(isMinCharacters(16), isMaxCharacters(200))

export class WebhookCreate extends Schema.Class<WebhookCreate>("WebhookCreate")({
  url: WebhookUrl,
  secret: WebhookSecret
}) {}

/** A registered webhook; its secret is never answered. */
export class Webhook extends Schema.Class<Webhook>("Webhook")({
  id: WebhookId,
  url: WebhookUrl
}) {}

/**
 * What other systems hear about: a reply, a promotion from the waiting list, a withdrawn yes, a
 * mark; a membership started or ended (issue 41); and every change of a session, series, activity
 * or user (issue 42, docs/events.md).
 */
export const EventType = Schema.Literals([
  "reply",
  "promotion",
  "cancellation",
  "presence",
  "membershipStarted",
  "membershipEnded",
  "sessionCreated",
  "sessionChanged",
  "sessionCancelled",
  "seriesCreated",
  "seriesChanged",
  "seriesCancelled",
  "activityCreated",
  "activityChanged",
  "activityDeleted",
  "userCreated",
  "userChanged",
  "userDeleted",
  "personErased"
])
export type EventType = typeof EventType.Type

/** An event as it is written to the outbox, in the transaction of the change it tells. */
export interface NewEvent {
  /**
   * What the event is about, and the order it is delivered in: the events of one session, or of
   * one group (a membership's), reach each webhook in the order written. At most one of the two:
   * a session's or activity's event names its session, a membership event its group; a series' or
   * user's event (and an activity's outside any session) names neither, and is in the club's
   * stream, delivered in order with the other events that name neither (decision 0281).
   */
  readonly sessionId: number | null
  readonly groupId?: number | null
  readonly type: EventType
  readonly data: Record<string, unknown>
}

/** One attempt to deliver an event to a webhook, as the delivery log keeps it. */
export class DeliveryAttempt extends Schema.Class<DeliveryAttempt>("DeliveryAttempt")({
  eventId: EventId,
  /** The session of a session's event; null for a group's or the club's (docs/events.md). */
  sessionId: Schema.NullOr(SessionId),
  /** The group of a membership event; null for any other. */
  groupId: Schema.NullOr(GroupId),
  attempt: Schema.Int,
  at: Instant,
  /** The receiver's HTTP status; null when none came (a timeout, a refused connection or address). */
  statusCode: Schema.NullOr(Schema.Int),
  delivered: Schema.Boolean,
  /**
   * Why a failed attempt failed, as a category (issue 37: never the socket's own error):
   * `refused-address`, `dns-failed`, `connect-failed`, `timeout` or `http-status`.
   */
  error: Schema.NullOr(Schema.String)
}) {}

/** A delivery a worker has claimed: what to send where, until its lease ends. */
export interface ClaimedDelivery {
  readonly webhookId: WebhookId
  readonly url: string
  readonly secret: string
  readonly eventId: EventId
  readonly sessionId: number | null
  readonly groupId: number | null
  /** 1 for the first attempt. */
  readonly attempt: number
  /**
   * The event as delivered, serialised once: `{"id", "type", "sessionId", "occurredAt", "data"}`
   * for a session's event, `{"id", "type", "groupId", "occurredAt", "data"}` for a membership event,
   * `{"id", "type", "occurredAt", "data"}` for one of the club's stream.
   */
  readonly body: string
}

/** How an attempt ended. */
export interface DeliveryOutcome {
  readonly delivered: boolean
  readonly statusCode: number | null
  readonly error: string | null
  readonly atEpochMs: number
  /** When to try again, for an attempt that failed; the webhook is parked until then (issue 37). */
  readonly retryAtEpochMs: number
  /** A failed attempt that was the last: the delivery is given up (dead) until a replay. */
  readonly final?: boolean
}
