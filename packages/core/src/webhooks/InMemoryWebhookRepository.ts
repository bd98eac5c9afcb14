import { Effect, Layer, Option } from "effect"
import {
  type ClaimedDelivery,
  DeliveryAttempt,
  type DeliveryOutcome,
  type EventId,
  Webhook,
  type WebhookCreate,
  type WebhookId
} from "./Webhook.ts"
import { WebhookRepository } from "./WebhookRepository.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryOutbox } from "./InMemoryOutbox.ts"

/** `WebhookRepository` on the in-memory outbox; each operation is one synchronous step. */
export const InMemoryWebhookRepository = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const outbox = yield* InMemoryOutbox

    const register = traced("WebhookRepository.register")(function*(input: WebhookCreate, max: number) {
      if (outbox.webhooks.size >= max) return Option.none()
      const id = ++outbox.counters.webhook
      outbox.webhooks.set(id, { id, url: input.url, secret: input.secret })
      return Option.some(new Webhook({ id: id as WebhookId, url: input.url }))
    })

    const list = traced("WebhookRepository.list")(function*() {
      return [...outbox.webhooks.values()].sort((a, b) => a.id - b.id).map((w) =>
        new Webhook({ id: w.id as WebhookId, url: w.url })
      )
    })

    const remove = traced("WebhookRepository.remove")(function*(id: WebhookId) {
      if (!outbox.webhooks.delete(id)) return false
      const kept = outbox.deliveries.filter((d) => d.webhookId !== id)
      outbox.deliveries.splice(0, outbox.deliveries.length, ...kept)
      const log = outbox.attempts.filter((a) => a.webhookId !== id)
      outbox.attempts.splice(0, outbox.attempts.length, ...log)
      return true
    })

    const attempts = traced("WebhookRepository.attempts")(function*(id: WebhookId, limit: number) {
      if (!outbox.webhooks.has(id)) return Option.none()
      return Option.some(
        outbox.attempts
          .map((a, order) => ({ a, order }))
          .filter(({ a }) => a.webhookId === id)
          .sort((x, y) => y.order - x.order)
          .slice(0, limit)
          .map(({ a }) =>
            new DeliveryAttempt({
              eventId: a.eventId as EventId,
              sessionId: a.sessionId as DeliveryAttempt["sessionId"],
              groupId: a.groupId as DeliveryAttempt["groupId"],
              attempt: a.attempt,
              at: new Date(a.atMs).toISOString(),
              statusCode: a.statusCode,
              delivered: a.delivered,
              error: a.error
            })
          )
      )
    })

    const replay = traced("WebhookRepository.replay")(function*(id: WebhookId, fromEventId: EventId) {
      if (!outbox.webhooks.has(id)) return Option.none()
      let count = 0
      for (const delivery of outbox.deliveries) {
        if (delivery.webhookId !== id || delivery.eventId < fromEventId) continue
        delivery.pending = true
        delivery.dead = false
        delivery.dueAtMs = 0
        count++
      }
      return Option.some(count)
    })

    const claim = traced("WebhookRepository.claim")(function*(owner: string, nowEpochMs: number, leaseMs: number) {
      const waiting = outbox.deliveries.filter((d) => d.pending)
      const due = waiting.find((d) =>
        d.dueAtMs <= nowEpochMs && d.leasedUntilMs <= nowEpochMs &&
        // In order per session, per group (membership events) and in the club's stream (events that
        // name neither): an earlier one of the same waits.
        !waiting.some((e) =>
          e.webhookId === d.webhookId && e.eventId < d.eventId &&
          ((d.sessionId !== null && e.sessionId === d.sessionId) || (d.groupId !== null && e.groupId === d.groupId) ||
            (d.sessionId === null && d.groupId === null && e.sessionId === null && e.groupId === null))
        ) &&
        !outbox.deliveries.some((f) => f.webhookId === d.webhookId && f.leasedUntilMs > nowEpochMs) &&
        (outbox.webhooks.get(d.webhookId)?.parkedUntilMs ?? 0) <= nowEpochMs
      )
      if (due === undefined) return Option.none<ClaimedDelivery>()
      due.leaseOwner = owner
      due.leasedUntilMs = nowEpochMs + leaseMs
      due.attempts++
      const webhook = outbox.webhooks.get(due.webhookId)!
      const event = outbox.events.find((e) => e.id === due.eventId)!
      return Option.some<ClaimedDelivery>({
        webhookId: webhook.id as WebhookId,
        url: webhook.url,
        secret: webhook.secret,
        eventId: event.id as EventId,
        sessionId: event.sessionId,
        groupId: event.groupId ?? null,
        attempt: due.attempts,
        body: JSON.stringify({
          id: event.id,
          type: event.type,
          ...(event.sessionId !== null
            ? { sessionId: event.sessionId }
            : event.groupId === null || event.groupId === undefined
            ? {}
            : { groupId: event.groupId }),
          occurredAt: new Date(event.occurredAtMs).toISOString(),
          data: event.data
        })
      })
    })

    const settle = traced("WebhookRepository.settle")(
      function*(owner: string, claimed: ClaimedDelivery, outcome: DeliveryOutcome) {
        outbox.attempts.push({
          webhookId: claimed.webhookId,
          eventId: claimed.eventId,
          sessionId: claimed.sessionId,
          groupId: claimed.groupId,
          attempt: claimed.attempt,
          atMs: outcome.atEpochMs,
          statusCode: outcome.statusCode,
          delivered: outcome.delivered,
          error: outcome.error
        })
        const delivery = outbox.deliveries.find((d) =>
          d.webhookId === claimed.webhookId && d.eventId === claimed.eventId
        )
        const webhook = outbox.webhooks.get(claimed.webhookId)
        if (webhook !== undefined) webhook.parkedUntilMs = outcome.delivered ? 0 : outcome.retryAtEpochMs
        if (delivery === undefined || delivery.leaseOwner !== owner) return
        delivery.leaseOwner = null
        delivery.leasedUntilMs = 0
        if (outcome.delivered) delivery.pending = false
        else if (outcome.final === true) {
          delivery.pending = false
          delivery.dead = true
        } else delivery.dueAtMs = outcome.retryAtEpochMs
      }
    )

    return WebhookRepository.of({ register, list, remove, attempts, replay, claim, settle })
  })
)
