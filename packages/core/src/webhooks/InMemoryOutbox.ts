import { Clock, Context, Effect, Layer } from "effect"
import type { NewEvent } from "./Webhook.ts"

export interface StoredEvent extends NewEvent {
  readonly id: number
  readonly occurredAtMs: number
}

export interface StoredWebhook {
  readonly id: number
  readonly url: string
  readonly secret: string
  /** Parked after a failed attempt until then (epoch ms); 0 when not. */
  parkedUntilMs?: number
}

export interface StoredDelivery {
  readonly webhookId: number
  readonly eventId: number
  readonly sessionId: number | null
  readonly groupId: number | null
  pending: boolean
  /** Given up after its last attempt, until a replay. */
  dead?: boolean
  attempts: number
  dueAtMs: number
  leaseOwner: string | null
  leasedUntilMs: number
}

export interface StoredAttempt {
  readonly webhookId: number
  readonly eventId: number
  readonly sessionId: number | null
  readonly groupId: number | null
  readonly attempt: number
  readonly atMs: number
  readonly statusCode: number | null
  readonly delivered: boolean
  readonly error: string | null
}

export interface Outbox {
  readonly events: Array<StoredEvent>
  readonly webhooks: Map<number, StoredWebhook>
  /** In event order, then webhook order. */
  readonly deliveries: Array<StoredDelivery>
  readonly attempts: Array<StoredAttempt>
  readonly counters: { event: number; webhook: number }
}

/**
 * The outbox of the in-memory store: the events the in-memory attendance repository writes with
 * each change, and their deliveries to the webhooks registered when they were written.
 */
export class InMemoryOutbox extends Context.Service<InMemoryOutbox, Outbox>()("@club/core/testing/InMemoryOutbox") {
  static readonly layer = Layer.sync(InMemoryOutbox, (): Outbox => ({
    events: [],
    webhooks: new Map(),
    deliveries: [],
    attempts: [],
    counters: { event: 0, webhook: 0 }
  }))
}

/** Writes `events` to the outbox, each due at once to every webhook registered. */
export const appendEvents = (outbox: Outbox, events: ReadonlyArray<NewEvent>) =>
  Effect.map(Clock.currentTimeMillis, (now) => appendEventsAt(outbox, events, now))

/** `appendEvents` at `now` (epoch ms), for a step that cannot read the clock. */
export const appendEventsAt = (outbox: Outbox, events: ReadonlyArray<NewEvent>, now: number) => {
  for (const event of events) {
    const id = ++outbox.counters.event
    outbox.events.push({ ...event, id, occurredAtMs: now })
    for (const webhook of [...outbox.webhooks.values()].sort((a, b) => a.id - b.id)) {
      outbox.deliveries.push({
        webhookId: webhook.id,
        eventId: id,
        sessionId: event.sessionId,
        groupId: event.groupId ?? null,
        pending: true,
        attempts: 0,
        dueAtMs: now,
        leaseOwner: null,
        leasedUntilMs: 0
      })
    }
  }
}
