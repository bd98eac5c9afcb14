import { AuthSettings } from "@club/core"
import { Effect, Layer } from "effect"
import { AppConfig } from "./AppConfig.ts"

/** TOKEN_TTL_SECONDS; the login throttling keeps core's defaults. */
export const AuthSettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  AuthSettings,
  Effect.gen(function*() {
    const defaults = yield* AuthSettings
    const config = yield* AppConfig
    return { ...defaults, tokenTtlSeconds: config.tokenTtlSeconds }
  })
)
