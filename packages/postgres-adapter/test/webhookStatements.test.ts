import { type ClaimedDelivery, type EventId, WebhookRepository, type WebhookId } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

onEachDatabase("Webhook delivery statements", (it) => {
  it.effect("a poll and the settling of a delivery send the same text whatever the time: one prepared statement each, not one per poll", () =>
    Effect.gen(function*() {
      const webhooks = yield* WebhookRepository
      const first = yield* countStatements(webhooks.claim("worker", 1_795_000_000_000, 21_000))
      const later = yield* countStatements(webhooks.claim("worker", 1_795_000_061_123, 5_000))
      expect(first.statements).toHaveLength(1)
      expect(later.statements).toEqual(first.statements)
      const claimed: ClaimedDelivery = {
        webhookId: 1 as WebhookId,
        eventId: 1 as EventId,
        sessionId: 1,
        groupId: null,
        attempt: 1,
        url: "http://receiver.example/hook",
        secret: "a secret of sixteen",
        body: "{}"
      }
      const settled = (atEpochMs: number) =>
        countStatements(webhooks.settle("worker", claimed, {
          atEpochMs,
          retryAtEpochMs: atEpochMs + 1_000,
          statusCode: 500,
          delivered: false,
          error: null
        }))
      const settledFirst = yield* settled(1_795_000_000_000)
      const settledLater = yield* settled(1_795_000_099_999)
      expect(settledFirst.statements).toHaveLength(1)
      expect(settledLater.statements).toEqual(settledFirst.statements)
    }))
})
