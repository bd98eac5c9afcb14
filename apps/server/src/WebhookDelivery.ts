import { type ClaimedDelivery, type DeliveryOutcome, WebhookRepository } from "@club/core"
import { Cause, Config, Effect, Layer, Option, Schema } from "effect"
import { createHmac, randomUUID } from "node:crypto"
import { hostname } from "node:os"

/** The WEBHOOK_* variables. */
export interface WebhookSettings {
  /** The delay before the second attempt; each later one doubles it, up to `retryMaxMs`. */
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** How long a receiver has to answer; an attempt taking longer is cut and counts as failed. */
  readonly timeoutMs: number
  /** How often an idle worker looks for due deliveries. */
  readonly pollMs: number
  /** How many deliveries this instance makes at once (to different sessions or webhooks). */
  readonly concurrency: number
}

const positive = (name: string, fallback: number) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

export const webhookSettings: Config.Config<WebhookSettings> = Config.all({
  retryBaseMs: positive("WEBHOOK_RETRY_BASE_MS", 1000),
  retryMaxMs: positive("WEBHOOK_RETRY_MAX_MS", 10 * 60 * 1000),
  timeoutMs: positive("WEBHOOK_TIMEOUT_MS", 10_000),
  pollMs: positive("WEBHOOK_POLL_MS", 1000),
  concurrency: positive("WEBHOOK_CONCURRENCY", 2)
})

/**
 * A claim's lease: longer than any attempt (the timeout), with room for settling it, so that no
 * other worker claims a delivery while an attempt at it may still reach the receiver.
 */
export const leaseMs = (settings: WebhookSettings) => settings.timeoutMs * 2 + 1000

/** The signature a receiver checks: `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` with the webhook's secret. */
export const signature = (secret: string, timestamp: number, body: string) =>
  `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`

/** The delay before attempt `attempt + 1`: exponential from the base, capped. */
export const retryDelayMs = (settings: WebhookSettings, attempt: number) =>
  Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(attempt - 1, 30))

/** POSTs the event; any answer other than a 2xx, or none in time, is a failed attempt. */
const attempt = (claimed: ClaimedDelivery, settings: WebhookSettings) =>
  Effect.promise(async (interrupted): Promise<DeliveryOutcome> => {
    const sentAt = Date.now()
    const timestamp = Math.floor(sentAt / 1000)
    const failed = (statusCode: number | null, error: string): DeliveryOutcome => ({
      delivered: false,
      statusCode,
      error,
      atEpochMs: sentAt,
      retryAtEpochMs: Date.now() + retryDelayMs(settings, claimed.attempt)
    })
    try {
      const response = await fetch(claimed.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "club-event-id": String(claimed.eventId),
          "club-timestamp": String(timestamp),
          "club-signature": signature(claimed.secret, timestamp, claimed.body)
        },
        body: claimed.body,
        redirect: "manual",
        // Cut at the timeout, or at once when the server stops (the lease then lets another worker retry).
        signal: AbortSignal.any([interrupted, AbortSignal.timeout(settings.timeoutMs)])
      })
      await response.body?.cancel()
      return response.ok
        ? { delivered: true, statusCode: response.status, error: null, atEpochMs: sentAt, retryAtEpochMs: 0 }
        : failed(response.status, `HTTP ${response.status}`)
    } catch (error) {
      const name = error instanceof Error ? error.name : ""
      return failed(
        null,
        name === "TimeoutError"
          ? `no answer within ${settings.timeoutMs} ms`
          : error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : error.message)
          : String(error)
      )
    }
  })

/**
 * One worker: claims the next due delivery, attempts it, settles it; waits `pollMs` when nothing is
 * due. A failure of the database (a claim or a settle that does not go through) is logged and the
 * loop goes on: an unsettled claim is claimed again when its lease ends.
 */
const worker = (owner: string, settings: WebhookSettings) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const lease = leaseMs(settings)
    const step = Effect.gen(function*() {
      const claimed = yield* webhooks.claim(owner, Date.now(), lease)
      if (Option.isNone(claimed)) return yield* Effect.sleep(settings.pollMs)
      const outcome = yield* attempt(claimed.value, settings)
      yield* webhooks.settle(owner, claimed.value, outcome)
      if (!outcome.delivered) {
        yield* Effect.logWarning("A webhook delivery failed; it will be retried").pipe(
          Effect.annotateLogs({
            webhookId: claimed.value.webhookId,
            eventId: claimed.value.eventId,
            attempt: claimed.value.attempt,
            error: outcome.error
          })
        )
      }
    }).pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          // A warning, not an error: an outage is what readiness reports, and the worker waits it out.
          : Effect.logWarning("The webhook worker could not claim or settle a delivery; it tries again", cause).pipe(
            Effect.andThen(Effect.sleep(settings.pollMs))
          )
      )
    )
    return yield* Effect.forever(step)
  })

/**
 * The delivery of the attendance events to webhooks (issue 18): `WEBHOOK_CONCURRENCY` workers,
 * forked for as long as the server runs. Each claims with an owner of its own, so that a lease
 * names one worker of one instance.
 */
export const WebhookDeliveryLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const settings = yield* webhookSettings
    const instance = `${hostname()}/${process.pid}/${randomUUID()}`
    for (let i = 0; i < settings.concurrency; i++) {
      yield* Effect.forkScoped(worker(`${instance}/${i}`, settings))
    }
  })
)
