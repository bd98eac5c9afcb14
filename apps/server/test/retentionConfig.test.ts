import { defaultRetentionSettings } from "@club/core"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { appConfig, retentionBatchSize } from "../src/AppConfig.ts"

const parse = (env: Record<string, string>) =>
  appConfig.parse(ConfigProvider.fromUnknown({ DATA_DIR: "memory://", ...env }))

describe("the retention's configuration (RETENTION_*)", () => {
  it.effect("defaults to core's periods, an hour between runs, and small batches on the embedded database", () =>
    Effect.gen(function*() {
      const config = yield* parse({})
      assert.deepStrictEqual(config.retention.periodDays, defaultRetentionSettings.periodDays)
      assert.strictEqual(config.retention.intervalSeconds, 3600)
      assert.strictEqual(retentionBatchSize(config), 100)
      assert.strictEqual(retentionBatchSize(yield* parse({ DATABASE_URL: "postgres://db/club" })), 1000)
      assert.strictEqual(retentionBatchSize(yield* parse({ RETENTION_BATCH_SIZE: "25" })), 25)
    }))

  it.effect("reads days, or off for a kind never purged", () =>
    Effect.gen(function*() {
      const config = yield* parse({
        RETENTION_OUTBOX_EVENTS_DAYS: "off",
        RETENTION_WEBHOOK_ATTEMPTS_DAYS: " 7 ",
        RETENTION_ENDED_MEMBERSHIPS_DAYS: "0"
      })
      assert.deepStrictEqual(config.retention.periodDays, {
        ...defaultRetentionSettings.periodDays,
        outboxEvents: null,
        webhookAttempts: 7,
        endedMemberships: 0
      })
    }))

  it.effect("refuses a period that is not days nor off, naming the variable", () =>
    Effect.gen(function*() {
      for (const value of ["-1", "1.5", "forever"]) {
        const error = yield* Effect.flip(parse({ RETENTION_WEBHOOK_ATTEMPTS_DAYS: value }))
        assert.include(String(error), "RETENTION_WEBHOOK_ATTEMPTS_DAYS")
      }
      assert.include(String(yield* Effect.flip(parse({ RETENTION_BATCH_SIZE: "0" }))), "RETENTION_BATCH_SIZE")
    }))

  it.effect("refuses login attempts purged within the failure window, which still counts them", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        parse({ RETENTION_LOGIN_ATTEMPTS_DAYS: "1", LOGIN_FAILURE_WINDOW_SECONDS: "172800" })
      )
      assert.include(String(error), "RETENTION_LOGIN_ATTEMPTS_DAYS")
      assert.strictEqual(
        (yield* parse({ RETENTION_LOGIN_ATTEMPTS_DAYS: "off", LOGIN_FAILURE_WINDOW_SECONDS: "172800" })).retention
          .periodDays.loginAttempts,
        null
      )
    }))
})
