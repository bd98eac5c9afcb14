import { defaultIdempotencySettings, IdempotencySettings } from "@club/core"
import { Layer } from "effect"
import { AppConfig } from "../AppConfig.ts"

/** IDEMPOTENCY_KEY_RETENTION_SECONDS. */
export const IdempotencySettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  IdempotencySettings,
  AppConfig.useSync((config) => ({
    ...defaultIdempotencySettings,
    retentionSeconds: config.idempotencyKeyRetentionSeconds
  }))
)
