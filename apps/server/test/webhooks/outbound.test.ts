import {
  CurrentActor,
  HostResolver,
  parseAllowedNetworks,
  type UserId,
  WebhookCreate,
  WebhookService,
  WebhookSettings
} from "@club/core"
import { appendEvents, InMemoryOutbox, InMemoryWebhookRepository } from "@club/core/testing"
import { eventually } from "@club/test-support"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebhookDeliveryLive } from "../../src/webhooks/WebhookDelivery.ts"
import { startReceiver } from "./Receiver.ts"

/**
 * Issue 37: the delivery of webhooks in this process, on core's in-memory outbox and real HTTP
 * receivers on 127.0.0.1, with the resolver given as a layer (the server's is the system's).
 */

type Receiver = Awaited<ReturnType<typeof startReceiver>>

const secret = "receiver-secret-0123456789"
const admin = CurrentActor.of({ userId: 1 as UserId, role: "ADMIN", athleteId: null, coachId: null, adminId: null })
const networks = (text: string) => {
  const parsed = parseAllowedNetworks(text)
  if ("invalid" in parsed) throw new Error(parsed.invalid)
  return parsed.networks
}

/** A resolver that answers `answers` in turn, the last one from then on, and counts its calls. */
const resolverAnswering = (...answers: ReadonlyArray<ReadonlyArray<string>>) => {
  let calls = 0
  const layer = Layer.succeed(HostResolver)({
    resolve: () => Effect.sync(() => answers[Math.min(calls++, answers.length - 1)]!)
  })
  return { layer, calls: () => calls }
}

/** The delivery, its webhooks and its outbox, with WEBHOOK_* = `env` and `resolver`. */
const deliveryWith = (env: Record<string, string>, resolver: Layer.Layer<HostResolver>) =>
  ManagedRuntime.make(
    Layer.mergeAll(WebhookDeliveryLive, WebhookService.layer).pipe(
      Layer.provideMerge(Layer.mergeAll(InMemoryWebhookRepository, resolver)),
      Layer.provideMerge(InMemoryOutbox.layer),
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({
        WEBHOOK_RETRY_BASE_MS: "50",
        WEBHOOK_RETRY_MAX_MS: "200",
        WEBHOOK_TIMEOUT_MS: "3000",
        WEBHOOK_POLL_MS: "20",
        ...env
      })))
    )
  )

type Delivery = ReturnType<typeof deliveryWith>

/** Registers `url` through the use-case, as an admin, under `allowed` networks. */
const register = (delivery: Delivery, url: string, allowed = "") =>
  delivery.runPromise(
    WebhookService.use((webhooks) => webhooks.register(new WebhookCreate({ url, secret }))).pipe(
      Effect.provideService(CurrentActor, admin),
      Effect.provideService(WebhookSettings, { allowedNetworks: networks(allowed), maxRegistrations: 100 })
    )
  )

/** Writes an event of `sessionId` to the outbox, due to every webhook. */
const event = (delivery: Delivery, sessionId: number) =>
  delivery.runPromise(
    Effect.flatMap(Effect.service(InMemoryOutbox), (outbox) =>
      appendEvents(outbox, [{ sessionId, type: "reply", data: { athleteId: 1 } }]))
  )

const attemptsOf = (delivery: Delivery, webhookId: number) =>
  delivery.runPromise(
    Effect.map(Effect.service(InMemoryOutbox), (outbox) => outbox.attempts.filter((a) => a.webhookId === webhookId))
  )

let receivers: Array<Receiver> = []
beforeAll(async () => {
  receivers = await Promise.all([startReceiver(), startReceiver(), startReceiver()])
})
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
})
const portOf = (receiver: Receiver) => new URL(receiver.url).port

describe("Webhook delivery never reaches a refused address (SSRF)", { timeout: 30_000 }, () => {
  it("a name that passed registration by the allow-list is refused at delivery once the list no longer allows it", async () => {
    const [receiver] = receivers
    receiver!.reset("ok")
    const delivery = deliveryWith({}, resolverAnswering(["127.0.0.1", "::1"]).layer)
    try {
      const webhook = await register(delivery, `http://localhost:${portOf(receiver!)}/hook`, "127.0.0.0/8,::1/128")
      await event(delivery, 1)
      expect(await eventually(async () => (await attemptsOf(delivery, webhook.id)).length > 0, 10_000)).toBe(true)
      const [attempt] = await attemptsOf(delivery, webhook.id)
      expect([attempt!.delivered, attempt!.statusCode, attempt!.error]).toEqual([false, null, "refused-address"])
      expect(receiver!.received).toEqual([])
    } finally {
      await delivery.dispose()
    }
  })

  it("DNS rebinding: a name public at registration and loopback at delivery is refused at the connection", async () => {
    const [receiver] = receivers
    receiver!.reset("ok")
    const resolver = resolverAnswering(["93.184.215.14"], ["127.0.0.1"])
    const delivery = deliveryWith({}, resolver.layer)
    try {
      const webhook = await register(delivery, `http://rebind.example:${portOf(receiver!)}/hook`)
      await event(delivery, 1)
      expect(await eventually(async () => (await attemptsOf(delivery, webhook.id)).length > 0, 10_000)).toBe(true)
      expect((await attemptsOf(delivery, webhook.id))[0]!.error).toBe("refused-address")
      expect(resolver.calls()).toBeGreaterThanOrEqual(2)
      expect(receiver!.received).toEqual([])
    } finally {
      await delivery.dispose()
    }
  })

  it("the same name delivers through the resolver when the operator allows its network", async () => {
    const [receiver] = receivers
    receiver!.reset("ok")
    const delivery = deliveryWith({ WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32" }, resolverAnswering(["127.0.0.1"]).layer)
    try {
      const webhook = await register(delivery, `http://receiver.internal:${portOf(receiver!)}/hook`, "127.0.0.1")
      await event(delivery, 1)
      expect(await eventually(async () => receiver!.received.length > 0, 10_000)).toBe(true)
      expect((await attemptsOf(delivery, webhook.id))[0]!.delivered).toBe(true)
    } finally {
      await delivery.dispose()
    }
  })
})

describe("One receiver's failures delay no other", { timeout: 30_000 }, () => {
  it("two silent receivers and a healthy one: the healthy one has its events well within the timeout", async () => {
    const [silentA, silentB, healthy] = receivers
    silentA!.reset("hang")
    silentB!.reset("hang")
    healthy!.reset("ok")
    // The timeout is 3 s: a healthy receiver waiting for the silent ones would wait that long.
    const delivery = deliveryWith({ WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32" }, resolverAnswering([]).layer)
    try {
      await register(delivery, silentA!.url, "127.0.0.1")
      await register(delivery, silentB!.url, "127.0.0.1")
      await register(delivery, healthy!.url, "127.0.0.1")
      const started = Date.now()
      for (const sessionId of [1, 2, 3]) await event(delivery, sessionId)
      expect(await eventually(async () => healthy!.received.length >= 3, 10_000)).toBe(true)
      expect(Date.now() - started).toBeLessThan(1500)
      // One attempt in flight per receiver: a silent one is not sent the other sessions' events meanwhile.
      expect(silentA!.received.length).toBe(1)
    } finally {
      await delivery.dispose()
    }
  })

  it("a redirect is a failure, not followed, retried up to WEBHOOK_MAX_ATTEMPTS, then given up", async () => {
    const [redirecting, target] = receivers
    redirecting!.reset("redirect")
    target!.reset("ok")
    redirecting!.redirectTo(target!.url)
    const delivery = deliveryWith(
      { WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32", WEBHOOK_MAX_ATTEMPTS: "3" },
      resolverAnswering([]).layer
    )
    try {
      const webhook = await register(delivery, redirecting!.url, "127.0.0.1")
      await event(delivery, 1)
      expect(await eventually(async () => (await attemptsOf(delivery, webhook.id)).length >= 3, 10_000)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 800))
      const attempts = await attemptsOf(delivery, webhook.id)
      expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, 302, "http-status"],
        [2, 302, "http-status"],
        [3, 302, "http-status"]
      ])
      expect(target!.received).toEqual([])
      const dead = await delivery.runPromise(
        Effect.map(
          Effect.service(InMemoryOutbox),
          (outbox) => outbox.deliveries.filter((d) => d.webhookId === webhook.id)
        )
      )
      expect(dead.map((d) => [d.pending, d.dead])).toEqual([[false, true]])
    } finally {
      await delivery.dispose()
    }
  })
})
