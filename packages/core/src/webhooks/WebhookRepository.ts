import { Context, type Effect, type Option } from "effect"
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryOutcome,
  EventId,
  Webhook,
  WebhookCreate,
  WebhookId
} from "./Webhook.ts"

/**
 * The webhooks admins register and the deliveries of the outbox's events to them (issue 18).
 * Every event written after a webhook's registration is delivered to it, at least once, in event
 * order per session: a delivery is not claimed while an earlier event of the same session waits
 * for the same webhook. A claim holds a lease: no other worker (no other instance) claims the
 * delivery until the lease ends or the attempt is settled, so one event is never being delivered
 * twice at the same time as long as an attempt ends before its lease (the worker's timeout).
 */
export class WebhookRepository extends Context.Service<WebhookRepository, {
  /** Registers the webhook unless `max` are registered already (none then), one at a time. */
  register(input: WebhookCreate, max: number): Effect.Effect<Option.Option<Webhook>>
  /** Every webhook, by id. */
  list(): Effect.Effect<ReadonlyArray<Webhook>>
  /** Removes the webhook and its deliveries; false when there is none. */
  remove(id: WebhookId): Effect.Effect<boolean>
  /** The webhook's latest attempts, most recent first (at most `limit`); none for an unknown webhook. */
  attempts(id: WebhookId, limit: number): Effect.Effect<Option.Option<ReadonlyArray<DeliveryAttempt>>>
  /**
   * Delivers again, from the next claim on, every event from `fromEventId` on that the webhook
   * was sent or is to be sent; answers how many. None for an unknown webhook.
   */
  replay(id: WebhookId, fromEventId: EventId): Effect.Effect<Option.Option<number>>
  /**
   * Claims the first delivery due at `nowEpochMs` (in event order) whose session has no earlier
   * event waiting for the same webhook, and that no live lease holds; leases it to `owner` for
   * `leaseMs`. None when nothing is due.
   */
  claim(owner: string, nowEpochMs: number, leaseMs: number): Effect.Effect<Option.Option<ClaimedDelivery>>
  /**
   * Logs the attempt, and settles the delivery: done when delivered, else due again at
   * `retryAtEpochMs`. Nothing when `owner`'s lease on it has been taken over meanwhile (the log
   * still keeps the attempt).
   */
  settle(owner: string, claimed: ClaimedDelivery, outcome: DeliveryOutcome): Effect.Effect<void>
}>()("@club/core/WebhookRepository") {}
