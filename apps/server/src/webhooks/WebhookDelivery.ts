import {
  addressRefusal,
  type AllowedNetwork,
  type ClaimedDelivery,
  type DeliveryOutcome,
  HostResolver,
  parseAllowedNetworks,
  WebhookRepository,
  WebhookSettings as CoreWebhookSettings,
  webhookHost
} from "@club/core"
import { Cause, Config, Effect, Layer, Option, Schema, SchemaIssue, Semaphore } from "effect"
import { lookup } from "node:dns/promises"
import { createHmac, randomUUID } from "node:crypto"
import * as http from "node:http"
import * as https from "node:https"
import { hostname } from "node:os"
import { positiveSetting } from "../shared/positiveSetting.ts"

/** The WEBHOOK_* variables. */
export interface WebhookSettings {
  /** The delay before the second attempt; each later one doubles it, up to `retryMaxMs`. */
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** How long a receiver has to answer; an attempt taking longer is cut and counts as failed. */
  readonly timeoutMs: number
  /** How often an idle worker looks for due deliveries. */
  readonly pollMs: number
  /** How many deliveries this instance makes at once, each to a different webhook. */
  readonly concurrency: number
  /** After this many failed attempts a delivery is given up (dead) until a replay. */
  readonly maxAttempts: number
  /** Networks a delivery may connect to although they are not public (`WEBHOOK_ALLOWED_NETWORKS`). */
  readonly allowedNetworks: ReadonlyArray<AllowedNetwork>
  /** How many webhooks may be registered at once. */
  readonly maxRegistrations: number
}

const positive = positiveSetting

export const webhookSettings: Config.Config<WebhookSettings> = Config.all({
  retryBaseMs: positive("WEBHOOK_RETRY_BASE_MS", 1000),
  retryMaxMs: positive("WEBHOOK_RETRY_MAX_MS", 10 * 60 * 1000),
  timeoutMs: positive("WEBHOOK_TIMEOUT_MS", 10_000),
  pollMs: positive("WEBHOOK_POLL_MS", 1000),
  concurrency: positive("WEBHOOK_CONCURRENCY", 16),
  maxAttempts: positive("WEBHOOK_MAX_ATTEMPTS", 100),
  allowedNetworks: Config.String("WEBHOOK_ALLOWED_NETWORKS").pipe(
    Config.withDefault(""),
    Config.mapEffect((text) => {
      const parsed = parseAllowedNetworks(text)
      return "invalid" in parsed
        ? Effect.fail(
          new Config.ConfigError(
            new Schema.SchemaError(
              new SchemaIssue.InvalidValue({
                message: `WEBHOOK_ALLOWED_NETWORKS: ${parsed.invalid} is not an IP address or a CIDR range (10.0.0.0/8)`
              })
            )
          )
        )
        : Effect.succeed(parsed.networks)
    })
  ),
  maxRegistrations: positive("WEBHOOK_MAX_REGISTRATIONS", 100)
})

/** Core's rules for registering webhooks, from the same variables. */
export const WebhookRegistrationFromConfig = Layer.effect(
  CoreWebhookSettings,
  Effect.map(webhookSettings, (settings) => ({
    allowedNetworks: settings.allowedNetworks,
    maxRegistrations: settings.maxRegistrations
  }))
)

/** The system's resolver (getaddrinfo, as every connection of Node uses), every address of a name. */
export const NodeHostResolver = Layer.succeed(HostResolver)({
  resolve: (host) =>
    Effect.promise(() =>
      lookup(host, { all: true, order: "verbatim" }).then(
        (found) => found.map((entry) => entry.address),
        () => []
      )
    )
})

/**
 * A claim's lease: longer than any attempt (the timeout), with room for settling it, so that no
 * other worker claims a delivery while an attempt at it may still reach the receiver.
 */
export const leaseMs = (settings: WebhookSettings) => settings.timeoutMs * 2 + 1000

/**
 * The legacy `Club-Signature`: `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed with
 * the webhook's secret as registered. Sent alongside the Standard Webhooks headers for one version
 * (docs/events.md, decision 0272), then dropped.
 */
export const signature = (secret: string, timestamp: number, body: string) =>
  `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`

const whsecPrefix = "whsec_"
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/u

/**
 * The Standard Webhooks key of a registered secret (decision 0273): a secret registered as
 * `whsec_<base64>` is that base64's bytes, as the specification keys it; any other secret (every
 * registration made before) is its UTF-8 bytes, which a receiver passes to its library as
 * `whsec_` + base64 of the secret (`standardWebhooksSecret`).
 */
export const standardWebhooksKey = (secret: string): Buffer => {
  if (secret.startsWith(whsecPrefix)) {
    const encoded = secret.slice(whsecPrefix.length)
    if (encoded.length > 0 && base64.test(encoded)) return Buffer.from(encoded, "base64")
  }
  return Buffer.from(secret, "utf8")
}

/** The `whsec_<base64>` form of a registered secret, what a receiver gives a Standard Webhooks library. */
export const standardWebhooksSecret = (secret: string) =>
  `${whsecPrefix}${standardWebhooksKey(secret).toString("base64")}`

/**
 * The `webhook-signature` of the Standard Webhooks specification: `v1,` and the base64
 * HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with `standardWebhooksKey`.
 */
export const standardSignature = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac("sha256", standardWebhooksKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`

/** The delay before attempt `attempt + 1`: exponential from the base, capped. */
export const retryDelayMs = (settings: WebhookSettings, attempt: number) =>
  Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(attempt - 1, 30))

/** Why an attempt did not reach the receiver: the delivery log keeps this category, never the socket's error. */
export type FailureCategory = "refused-address" | "dns-failed" | "connect-failed" | "timeout" | "http-status"

class Refused extends Error {
  constructor(readonly category: "refused-address" | "dns-failed") {
    super(category)
  }
}

type LookupCallback = (
  error: Error | null,
  address: string | ReadonlyArray<{ address: string; family: number }>,
  family?: number
) => void

/**
 * The `lookup` of a delivery's connection: resolves the name with `resolver`, and refuses it when
 * any address it gives is one a webhook may not reach. The socket connects only to addresses
 * checked here, so a name that answers a public address at registration and a private one now (DNS
 * rebinding) is refused at the connection itself.
 */
const guardedLookup = (resolver: HostResolver["Service"], allowed: ReadonlyArray<AllowedNetwork>) =>
(
  hostname: string,
  options: { readonly all?: boolean },
  callback: LookupCallback
) => {
  Effect.runPromise(resolver.resolve(hostname)).then((addresses) => {
    if (addresses.length === 0) return callback(new Refused("dns-failed"), "")
    if (addresses.some((address) => addressRefusal(address, allowed) !== undefined)) {
      return callback(new Refused("refused-address"), "")
    }
    const family = (address: string) => address.includes(":") ? 6 : 4
    if (options.all === true) callback(null, addresses.map((address) => ({ address, family: family(address) })))
    else callback(null, addresses[0]!, family(addresses[0]!))
  }, (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ""))
}

/**
 * POSTs the event on a connection of its own (no pooled socket outlives the check of its address);
 * a 2xx delivers it, anything else fails the attempt: another status (a redirect is not followed),
 * no answer within the timeout, or no connection.
 */
const attempt = (
  claimed: ClaimedDelivery,
  settings: WebhookSettings,
  resolver: HostResolver["Service"]
) =>
  Effect.promise((interrupted): Promise<DeliveryOutcome> => {
    const sentAt = Date.now()
    const timestamp = Math.floor(sentAt / 1000)
    const failed = (statusCode: number | null, error: FailureCategory): DeliveryOutcome => ({
      delivered: false,
      statusCode,
      error,
      atEpochMs: sentAt,
      retryAtEpochMs: Date.now() + retryDelayMs(settings, claimed.attempt)
    })
    const destination = webhookHost(claimed.url)
    if ("invalid" in destination) return Promise.resolve(failed(null, "refused-address"))
    // An IP literal is connected to without a lookup: judged here.
    if (
      destination.address !== undefined && addressRefusal(destination.address, settings.allowedNetworks) !== undefined
    ) {
      return Promise.resolve(failed(null, "refused-address"))
    }
    const timeout = AbortSignal.timeout(settings.timeoutMs)
    return new Promise<DeliveryOutcome>((resolve) => {
      const url = new URL(claimed.url)
      const request = (url.protocol === "https:" ? https.request : http.request)(url, {
        method: "POST",
        agent: false,
        lookup: guardedLookup(resolver, settings.allowedNetworks) as never,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(claimed.body),
          // Standard Webhooks: the id is the event's, the same on every retry, so receivers dedupe on it.
          "webhook-id": String(claimed.eventId),
          "webhook-timestamp": String(timestamp),
          "webhook-signature": standardSignature(claimed.secret, String(claimed.eventId), timestamp, claimed.body),
          "club-event-id": String(claimed.eventId),
          "club-timestamp": String(timestamp),
          "club-signature": signature(claimed.secret, timestamp, claimed.body)
        },
        // Cut at the timeout, or at once when the server stops (the lease then lets another worker retry).
        signal: AbortSignal.any([interrupted, timeout])
      })
      request.on("response", (response) => {
        const status = response.statusCode ?? 0
        response.destroy()
        resolve(
          status >= 200 && status < 300
            ? { delivered: true, statusCode: status, error: null, atEpochMs: sentAt, retryAtEpochMs: 0 }
            : failed(status, "http-status")
        )
      })
      request.on("error", (error) =>
        resolve(failed(
          null,
          error instanceof Refused ? error.category : timeout.aborted ? "timeout" : "connect-failed"
        )))
      request.end(claimed.body)
    })
  })

/**
 * The dispatcher of one instance: claims due deliveries while it has a free slot (`concurrency`),
 * and attempts each in a fiber of its own, so that a receiver that does not answer holds one slot
 * until its timeout and no other receiver waits for it. A claim passes over a webhook that has an
 * attempt in flight or that is parked after a failure (the repository's rule), so one receiver
 * never holds more than one slot. A failure of the database (a claim or a settle that does not go
 * through) is logged and the loop goes on: an unsettled claim is claimed again when its lease ends.
 */
const dispatcher = (owner: string, settings: WebhookSettings) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const resolver = yield* HostResolver
    const lease = leaseMs(settings)
    const slots = yield* Semaphore.make(settings.concurrency)
    const troubled = (cause: Cause.Cause<unknown>) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        // A warning, not an error: an outage is what readiness reports, and the worker waits it out.
        : Effect.logWarning("The webhook worker could not claim or settle a delivery; it tries again", cause).pipe(
          Effect.andThen(Effect.sleep(settings.pollMs))
        )
    const deliver = (claimed: ClaimedDelivery) =>
      Effect.gen(function*() {
        const outcome = yield* attempt(claimed, settings, resolver)
        const final = !outcome.delivered && claimed.attempt >= settings.maxAttempts
        yield* webhooks.settle(owner, claimed, { ...outcome, final })
        if (!outcome.delivered) {
          yield* Effect.logWarning(
            final
              ? "A webhook delivery failed its last attempt; it is given up"
              : "A webhook delivery failed; it will be retried"
          ).pipe(
            Effect.annotateLogs({
              webhookId: claimed.webhookId,
              eventId: claimed.eventId,
              attempt: claimed.attempt,
              error: outcome.error
            })
          )
        }
      }).pipe(Effect.catchCause(troubled), Effect.ensuring(slots.release(1)))
    const step = Effect.gen(function*() {
      yield* slots.take(1)
      const claimed = yield* webhooks.claim(owner, Date.now(), lease).pipe(Effect.onError(() => slots.release(1)))
      if (Option.isNone(claimed)) {
        yield* slots.release(1)
        return yield* Effect.sleep(settings.pollMs)
      }
      yield* Effect.forkChild(deliver(claimed.value))
    }).pipe(Effect.catchCause(troubled))
    return yield* Effect.forever(step)
  })

/**
 * The delivery of the attendance events to webhooks (issue 18, issue 37): one dispatcher, forked
 * for as long as the server runs, claiming with an owner of its own so that a lease names one
 * instance.
 */
export const WebhookDeliveryLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const settings = yield* webhookSettings
    yield* Effect.forkScoped(dispatcher(`${hostname()}/${process.pid}/${randomUUID()}`, settings))
  })
)
