import {
  type AuthSettings,
  defaultAuthSettings,
  defaultIdempotencySettings,
  canonicalTimeZone,
  defaultScheduleSettings,
  noticeLanguages,
  type NoticeLanguage,
  type RetainedKind,
  defaultRetentionSettings,
  type RetentionSettings,
  type ScheduleSettings
} from "@club/core"
import { inMemory } from "@club/postgres-adapter"
import { Config, Context, Effect, Layer, Option, Redacted, Schema, SchemaIssue } from "effect"
import type { LogLevel } from "effect/LogLevel"
import { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"
import type { SmtpSettings } from "./mail/SmtpMailer.ts"

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
  /** METRICS, METRICS_PORT and METRICS_HOST: whether requests are measured, and where `/metrics` is served. */
  readonly metrics: MetricsSettings
  /** The OTEL_* variables: where spans are exported to; none (tracing off) by default. */
  readonly tracing: Option.Option<OtlpTracing>
  /** CLUB_TIMEZONE and the SCHEDULE_* variables: core's ScheduleSettings. */
  readonly schedule: ScheduleSettings
  /** SMTP_URL, SMTP_FROM, SMTP_REPLY_TO, SMTP_TIMEOUT_SECONDS; none when SMTP_URL is unset: mail is off. */
  readonly mail: Option.Option<SmtpSettings>
  /** CLUB_LANGUAGE: the language of a notice whose recipient chose none (docs/notices.md). */
  readonly clubLanguage: NoticeLanguage
  /** The RETENTION_* variables: what is purged after how long, and how (docs/privacy.md). */
  readonly retention: RetentionConfig
  /**
   * PUBLIC_URL: where people reach the club's app, without a trailing slash; a notice links to its
   * session there. None: `http://localhost:<PORT>`.
   */
  readonly publicUrl: Option.Option<string>
}

export interface RetentionConfig extends Omit<RetentionSettings, "batchSize"> {
  /** RETENTION_BATCH_SIZE; unset: a default for the database (`retentionBatchSize`). */
  readonly batchSize: number | undefined
  /** How long an instance waits between two purges. */
  readonly intervalSeconds: number
}

/**
 * Rows per batch when RETENTION_BATCH_SIZE is unset: smaller on the embedded database, whose one
 * connection serves the requests too (a batch holds it while it runs).
 */
export const retentionBatchSize = (config: Pick<AppConfigShape, "databaseUrl" | "retention">): number =>
  config.retention.batchSize ?? (Option.isSome(config.databaseUrl) ? defaultRetentionSettings.batchSize : 100)

/** Each retained kind's variable: days, or `off` (never purged). A kind added in core is one entry here. */
export const retentionVariables: Record<RetainedKind, string> = {
  outboxEvents: "RETENTION_OUTBOX_EVENTS_DAYS",
  webhookAttempts: "RETENTION_WEBHOOK_ATTEMPTS_DAYS",
  idempotencyKeys: "RETENTION_IDEMPOTENCY_KEYS_DAYS",
  loginAttempts: "RETENTION_LOGIN_ATTEMPTS_DAYS",
  endedMemberships: "RETENTION_ENDED_MEMBERSHIPS_DAYS",
  notices: "RETENTION_NOTICES_DAYS",
  auditEntries: "RETENTION_AUDIT_ENTRIES_DAYS"
}

export interface MetricsSettings {
  /** Off: nothing is measured and nothing answers `/metrics`. */
  readonly enabled: boolean
  /** Set: `/metrics` on a listener of its own at `host:port`, and not on the service's port. */
  readonly port: number | undefined
  readonly host: string
}

/** OTLP over HTTP, as the OpenTelemetry environment variables describe it. */
export interface OtlpTracing {
  /** Where the spans are posted: `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is. */
  readonly url: string
  readonly protocol: "http/protobuf" | "http/json"
  /** OTEL_SERVICE_NAME; undefined where OTEL_RESOURCE_ATTRIBUTES names it (read by the exporter). */
  readonly serviceName: string | undefined
  readonly headers: Readonly<Record<string, string>>
}

/** The service's name in its spans when the environment gives none. */
export const defaultServiceName = "club-training-service"

/** `DATA_DIR=memory://`: nothing on disk (the embedded database's own spelling for that). */
export const isInMemory = (dataDir: string): boolean => dataDir === inMemory

const logLevels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const satisfies Record<
  string,
  LogLevel
>

// An empty variable (`JWT_SECRET=`) means unset, as a shell or a compose file easily produces one.
const optionalSecret = (name: string) =>
  Config.option(Config.Redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).length > 0))
  )

const invalid = (message: string) =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

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
        invalid(
          `HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`
        )
      )
  )
)

// Comma-separated; blanks around entries and empty entries are ignored, so an empty variable means none.
const commaSeparated = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((value) => value.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0))
  )

// An empty variable means unset, as for the secrets above.
const optionalString = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((value) => (value.trim() === "" ? undefined : value.trim()))
  )

const onOff = (name: string, defaultValue: boolean) =>
  Config.Literals(["on", "off"], name).pipe(
    Config.withDefault(defaultValue ? "on" : "off"),
    Config.map((value) => value === "on")
  )

const schedule: Config.Config<ScheduleSettings> = Config.all({
  timeZone: Config.String("CLUB_TIMEZONE").pipe(
    Config.withDefault(defaultScheduleSettings.timeZone),
    Config.mapEffect((name) => {
      const zone = canonicalTimeZone(name.trim())
      return zone === undefined
        ? Effect.fail(
          invalid(`CLUB_TIMEZONE must be an IANA time zone such as Europe/Paris, not ${JSON.stringify(name)}`)
        )
        : Effect.succeed(zone)
    })
  ),
  horizonWeeks: positiveInt("SCHEDULE_HORIZON_WEEKS", defaultScheduleSettings.horizonWeeks),
  maxOccurrences: positiveInt("SCHEDULE_MAX_OCCURRENCES", defaultScheduleSettings.maxOccurrences),
  maxSeriesPlaces: positiveInt("SCHEDULE_MAX_SERIES_PLACES", defaultScheduleSettings.maxSeriesPlaces!),
  placesPerWrite: positiveInt("SCHEDULE_PLACES_PER_WRITE", defaultScheduleSettings.placesPerWrite!),
  seedRefusesConflicts: Config.Literals(["true", "false", "on", "off"], "SCHEDULE_SEED_REFUSES_CONFLICTS").pipe(
    Config.withDefault("false"),
    Config.map((value) => value === "true" || value === "on")
  )
})

/** Whole days (0 or more), or `off`: null. */
const retentionDays = (name: string, defaultValue: number | null) =>
  Config.String(name).pipe(
    Config.withDefault(defaultValue === null ? "off" : String(defaultValue)),
    Config.mapEffect((text) => {
      const value = text.trim()
      if (value === "off") return Effect.succeed(null)
      return /^[0-9]{1,6}$/u.test(value)
        ? Effect.succeed(Number(value))
        : Effect.fail(invalid(`${name} must be a number of days (0 or more) or off, got ${JSON.stringify(text)}`))
    })
  )

const retentionPeriods = Config.all(
  Object.fromEntries(
    Object.entries(retentionVariables).map((
      [kind, name]
    ) => [kind, retentionDays(name, defaultRetentionSettings.periodDays[kind as RetainedKind])])
  ) as Record<RetainedKind, Config.Config<number | null>>
)

const retention: Config.Config<RetentionConfig> = Config.all({
  periodDays: retentionPeriods,
  batchSize: optionalString("RETENTION_BATCH_SIZE").pipe(
    Config.mapEffect((value) =>
      value === undefined
        ? Effect.succeed(undefined)
        : /^[1-9][0-9]{0,5}$/u.test(value)
        ? Effect.succeed(Number(value))
        : Effect.fail(
          invalid(`RETENTION_BATCH_SIZE must be a number of rows (1 to 999999), got ${JSON.stringify(value)}`)
        )
    )
  ),
  pauseMs: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), "RETENTION_PAUSE_MS").pipe(
    Config.withDefault(defaultRetentionSettings.pauseMs)
  ),
  intervalSeconds: positiveInt("RETENTION_INTERVAL_SECONDS", 3600),
  failureWindowSeconds: positiveInt("LOGIN_FAILURE_WINDOW_SECONDS", defaultAuthSettings.failureWindowSeconds)
}).pipe(
  // A login key purged within its window would forget failures the throttling still counts.
  Config.mapEffect(({ failureWindowSeconds, ...settings }) => {
    const days = settings.periodDays.loginAttempts
    return days !== null && days * 86_400 < failureWindowSeconds
      ? Effect.fail(
        invalid(
          `RETENTION_LOGIN_ATTEMPTS_DAYS (${days}) must cover LOGIN_FAILURE_WINDOW_SECONDS (${failureWindowSeconds}), or be off`
        )
      )
      : Effect.succeed(settings)
  })
)

const metrics: Config.Config<MetricsSettings> = Config.all({
  enabled: onOff("METRICS", true),
  port: optionalString("METRICS_PORT").pipe(
    Config.mapEffect((value) => {
      if (value === undefined) return Effect.succeed(undefined)
      const port = Number(value)
      return /^[0-9]+$/u.test(value) && port >= 1 && port <= 65_535
        ? Effect.succeed(port)
        : Effect.fail(invalid(`METRICS_PORT must be a port number (1 to 65535), got ${JSON.stringify(value)}`))
    })
  ),
  host: Config.NonEmptyString("METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
})

/** `key1=value1,key2=value2`, values percent-encoded (the OpenTelemetry specification's W3C Baggage subset). */
const otlpHeaders = (value: string | undefined): Effect.Effect<Record<string, string>, Config.ConfigError> => {
  const headers: Record<string, string> = {}
  for (const entry of (value ?? "").split(",")) {
    if (entry.trim() === "") continue
    const equals = entry.indexOf("=")
    if (equals <= 0) {
      return Effect.fail(invalid(`OTEL_EXPORTER_OTLP_HEADERS: expected key=value, got ${JSON.stringify(entry.trim())}`))
    }
    try {
      headers[decodeURIComponent(entry.slice(0, equals).trim())] = decodeURIComponent(entry.slice(equals + 1).trim())
    } catch {
      return Effect.fail(invalid(`OTEL_EXPORTER_OTLP_HEADERS: bad percent-encoding in ${JSON.stringify(entry.trim())}`))
    }
  }
  return Effect.succeed(headers)
}

const otlpUrl = (name: string, value: string, signalPath: string | undefined) => {
  try {
    const url = new URL(value)
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http")
    if (signalPath !== undefined) url.pathname = `${url.pathname.replace(/\/+$/u, "")}/${signalPath}`
    return Effect.succeed(url.toString())
  } catch {
    return Effect.fail(invalid(`${name} must be an http:// or https:// URL, got ${JSON.stringify(value)}`))
  }
}

/**
 * Tracing is on when an OTLP endpoint is given (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or
 * OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces`), unless OTEL_SDK_DISABLED is true or
 * OTEL_TRACES_EXPORTER names another exporter (`none`). OTLP over HTTP only: protobuf (the
 * specification's default) or JSON; `grpc` stops the start, naming the variable.
 */
const tracing: Config.Config<Option.Option<OtlpTracing>> = Config.all({
  disabled: optionalString("OTEL_SDK_DISABLED").pipe(Config.map((value) => value?.toLowerCase() === "true")),
  exporter: optionalString("OTEL_TRACES_EXPORTER"),
  endpoint: optionalString("OTEL_EXPORTER_OTLP_ENDPOINT"),
  tracesEndpoint: optionalString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  protocol: optionalString("OTEL_EXPORTER_OTLP_PROTOCOL"),
  tracesProtocol: optionalString("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"),
  headers: optionalString("OTEL_EXPORTER_OTLP_HEADERS"),
  tracesHeaders: optionalString("OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
  serviceName: optionalString("OTEL_SERVICE_NAME"),
  resourceAttributes: optionalString("OTEL_RESOURCE_ATTRIBUTES")
}).pipe(
  Config.mapEffect((env) =>
    Effect.gen(function*() {
      const exporters = (env.exporter ?? "otlp").split(",").map((name) => name.trim().toLowerCase())
      if (env.disabled || !exporters.includes("otlp")) return Option.none()
      const url = env.tracesEndpoint !== undefined
        ? yield* otlpUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", env.tracesEndpoint, undefined)
        : env.endpoint !== undefined
        ? yield* otlpUrl("OTEL_EXPORTER_OTLP_ENDPOINT", env.endpoint, "v1/traces")
        : undefined
      if (url === undefined) return Option.none()
      const protocol = env.tracesProtocol ?? env.protocol ?? "http/protobuf"
      if (protocol !== "http/protobuf" && protocol !== "http/json") {
        return yield* Effect.fail(
          invalid(
            `OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)} is not supported: use http/protobuf or http/json`
          )
        )
      }
      const namedByAttributes = /(^|,)\s*service\.name\s*=/u.test(env.resourceAttributes ?? "")
      return Option.some(
        {
          url,
          protocol,
          serviceName: env.serviceName ?? (namedByAttributes ? undefined : defaultServiceName),
          headers: yield* otlpHeaders(env.tracesHeaders ?? env.headers)
        } satisfies OtlpTracing
      )
    })
  )
)

const mail: Config.Config<Option.Option<SmtpSettings>> = Config.all({
  url: optionalSecret("SMTP_URL"),
  from: optionalString("SMTP_FROM"),
  replyTo: optionalString("SMTP_REPLY_TO"),
  timeoutSeconds: positiveInt("SMTP_TIMEOUT_SECONDS", 30)
}).pipe(
  Config.mapEffect(({ from, replyTo, timeoutSeconds, url }) => {
    if (Option.isNone(url)) return Effect.succeed(Option.none())
    const scheme = Redacted.value(url.value).split(":", 1)[0]
    // The URL itself is never echoed: it may carry the relay's password.
    if (scheme !== "smtp" && scheme !== "smtps") {
      return Effect.fail(invalid("SMTP_URL must start with smtp:// or smtps://"))
    }
    if (from === undefined) return Effect.fail(invalid("SMTP_FROM is required when SMTP_URL is set"))
    return Effect.succeed(Option.some({ url: url.value, from, replyTo, timeoutMs: timeoutSeconds * 1000 }))
  })
)

const publicUrl: Config.Config<Option.Option<string>> = optionalString("PUBLIC_URL").pipe(
  Config.mapEffect((value) => {
    if (value === undefined) return Effect.succeed(Option.none())
    const parsed = URL.canParse(value) ? new URL(value) : undefined
    return parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      ? Effect.fail(invalid(`PUBLIC_URL must be an http:// or https:// URL, not ${JSON.stringify(value)}`))
      : Effect.succeed(Option.some(value.replace(/\/+$/u, "")))
  })
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
    freeFailuresPerNameAndAddress: positiveInt(
      "LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS",
      defaultAuthSettings.freeFailuresPerNameAndAddress
    ),
    freeFailuresPerAddress: positiveInt("LOGIN_FREE_FAILURES_PER_ADDRESS", defaultAuthSettings.freeFailuresPerAddress),
    firstDelaySeconds: positiveInt("LOGIN_FIRST_DELAY_SECONDS", defaultAuthSettings.firstDelaySeconds),
    maxDelaySeconds: positiveInt("LOGIN_MAX_DELAY_SECONDS", defaultAuthSettings.maxDelaySeconds),
    failureWindowSeconds: positiveInt("LOGIN_FAILURE_WINDOW_SECONDS", defaultAuthSettings.failureWindowSeconds)
  }),
  trustedProxies: commaSeparated("TRUSTED_PROXIES"),
  corsOrigins: commaSeparated("CORS_ORIGINS"),
  idempotencyKeyRetentionSeconds: positiveInt(
    "IDEMPOTENCY_KEY_RETENTION_SECONDS",
    defaultIdempotencySettings.retentionSeconds
  ),
  metrics,
  tracing,
  schedule,
  mail,
  clubLanguage: Config.Literals(noticeLanguages, "CLUB_LANGUAGE").pipe(Config.withDefault("fr")),
  retention,
  publicUrl
})

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("@club/server/AppConfig") {
  /** Read from the current `ConfigProvider` (the process environment by default). */
  static readonly layer = Layer.effect(AppConfig, Effect.map(appConfig, AppConfig.of))
}
