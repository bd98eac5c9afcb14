import { type AuthSettings, defaultAuthSettings, defaultIdempotencySettings } from "@club/core"
import { Config, Context, Effect, Layer, Option, Redacted, Schema, SchemaIssue } from "effect"
import type { LogLevel } from "effect/LogLevel"
import { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"

/** The environment of CONTRACT.md, "Configuration (environment)". */
export interface AppConfigShape {
  readonly port: number
  readonly host: string
  /** Set: use that PostgreSQL server; unset: embedded PostgreSQL in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** A directory, or `memory://` for nothing on disk. */
  readonly dataDir: string
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
  readonly tokenTtlSeconds: number
  readonly adminName: string
  readonly adminPassword: Option.Option<Redacted.Redacted<string>>
  readonly logLevel: LogLevel
  /** Connections, HTTP/2 streams and client timeouts (see ServingLimits). */
  readonly servingLimits: ServingLimits
  /** The LOGIN_* variables: core's AuthSettings for throttling failed logins. */
  readonly loginThrottling: Omit<AuthSettings, "tokenTtlSeconds">
  /** Addresses and CIDR ranges whose `X-Forwarded-For` is believed; none by default. */
  readonly trustedProxies: ReadonlyArray<string>
  /** Web origins whose pages may call the service, `*` for any; none (CORS off) by default. */
  readonly corsOrigins: ReadonlyArray<string>
  /** How long the answer to a write sent with an `Idempotency-Key` is replayed. */
  readonly idempotencyKeyRetentionSeconds: number
}

export const inMemoryDataDir = "memory://"

export const isInMemory = (dataDir: string): boolean => dataDir === inMemoryDataDir

const logLevels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const satisfies Record<string, LogLevel>

// An empty variable (`JWT_SECRET=`) means unset, as a shell or a compose file easily produces one.
const optionalSecret = (name: string) =>
  Config.option(Config.Redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).length > 0))
  )

const invalid = (message: string) => new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

/** HS256 signs with a key of the hash's size; a shorter secret can be guessed offline from any token. */
export const minJwtSecretBytes = 32

const jwtSecret = optionalSecret("JWT_SECRET").pipe(
  Config.mapEffect((secret) =>
    Option.isSome(secret) && Buffer.byteLength(Redacted.value(secret.value), "utf8") < minJwtSecretBytes
      ? Effect.fail(invalid(`JWT_SECRET must be at least ${minJwtSecretBytes} bytes (a long random string)`))
      : Effect.succeed(secret)
  )
)

const positiveInt = (name: string, defaultValue: number) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(defaultValue))

const servingLimits: Config.Config<ServingLimits> = Config.all({
  maxConnections: positiveInt("MAX_CONNECTIONS", defaultServingLimits.maxConnections),
  maxStreamsPerSession: positiveInt("HTTP2_MAX_CONCURRENT_STREAMS", defaultServingLimits.maxStreamsPerSession),
  maxStreams: positiveInt("MAX_HTTP2_STREAMS", defaultServingLimits.maxStreams),
  idleTimeoutMs: positiveInt("IDLE_TIMEOUT_MS", defaultServingLimits.idleTimeoutMs),
  headersTimeoutMs: positiveInt("HEADERS_TIMEOUT_MS", defaultServingLimits.headersTimeoutMs),
  requestTimeoutMs: positiveInt("REQUEST_TIMEOUT_MS", defaultServingLimits.requestTimeoutMs)
}).pipe(
  // The headers are part of the request: waiting longer for them than for the whole request means nothing.
  Config.mapEffect((limits) =>
    limits.headersTimeoutMs <= limits.requestTimeoutMs
      ? Effect.succeed(limits)
      : Effect.fail(
        invalid(`HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`)
      )
  )
)

// Comma-separated; blanks around entries and empty entries are ignored, so an empty variable means none.
const commaSeparated = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((value) => value.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0))
  )

export const appConfig: Config.Config<AppConfigShape> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("0.0.0.0")),
  databaseUrl: optionalSecret("DATABASE_URL"),
  dataDir: Config.NonEmptyString("DATA_DIR").pipe(Config.withDefault("./data")),
  jwtSecret,
  tokenTtlSeconds: Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "TOKEN_TTL_SECONDS").pipe(
    Config.withDefault(3600)
  ),
  adminName: Config.NonEmptyString("ADMIN_NAME").pipe(Config.withDefault("admin")),
  adminPassword: optionalSecret("ADMIN_PASSWORD"),
  logLevel: Config.Literals(["debug", "info", "warn", "error"], "LOG_LEVEL").pipe(
    Config.withDefault("info"),
    Config.map((name) => logLevels[name])
  ),
  servingLimits,
  loginThrottling: Config.all({
    freeFailuresPerNameAndAddress: positiveInt("LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS", defaultAuthSettings.freeFailuresPerNameAndAddress),
    freeFailuresPerAddress: positiveInt("LOGIN_FREE_FAILURES_PER_ADDRESS", defaultAuthSettings.freeFailuresPerAddress),
    firstDelaySeconds: positiveInt("LOGIN_FIRST_DELAY_SECONDS", defaultAuthSettings.firstDelaySeconds),
    maxDelaySeconds: positiveInt("LOGIN_MAX_DELAY_SECONDS", defaultAuthSettings.maxDelaySeconds),
    failureWindowSeconds: positiveInt("LOGIN_FAILURE_WINDOW_SECONDS", defaultAuthSettings.failureWindowSeconds)
  }),
  trustedProxies: commaSeparated("TRUSTED_PROXIES"),
  corsOrigins: commaSeparated("CORS_ORIGINS"),
  idempotencyKeyRetentionSeconds: positiveInt("IDEMPOTENCY_KEY_RETENTION_SECONDS", defaultIdempotencySettings.retentionSeconds)
})

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("@club/server/AppConfig") {
  /** Read from the current `ConfigProvider` (the process environment by default). */
  static readonly layer = Layer.effect(AppConfig, Effect.map(appConfig, AppConfig.of))
}
