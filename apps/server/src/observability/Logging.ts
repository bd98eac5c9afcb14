import { redactFeedTokens } from "./Redaction.ts"
import { Layer, Logger, References } from "effect"
import { AppConfig } from "../AppConfig.ts"

/** One JSON object per line on stdout, feed tokens redacted (issue 37: `http.url` names a feed's token). */
export const JsonLogger: Layer.Layer<never> = Logger.layer([
  Logger.withConsoleLog(Logger.map(Logger.formatJson, redactFeedTokens))
])

/** LOG_LEVEL as the minimum level of every log call. */
export const MinimumLogLevelFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  References.MinimumLogLevel,
  AppConfig.useSync((config) => config.logLevel)
)
