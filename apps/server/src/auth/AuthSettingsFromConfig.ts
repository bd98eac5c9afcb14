import { AuthSettings } from "@club/core"
import { Layer } from "effect"
import { AppConfig } from "../AppConfig.ts"

/** TOKEN_TTL_SECONDS and the LOGIN_* throttling variables. */
export const AuthSettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  AuthSettings,
  AppConfig.useSync((config) => ({ tokenTtlSeconds: config.tokenTtlSeconds, ...config.loginThrottling }))
)
