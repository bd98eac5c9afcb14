import type { AuthSettings } from "@club/core"
import { Config, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { LogLevel } from "effect/LogLevel"

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
  /** The LOGIN_* variables: core's AuthSettings for throttling failed logins. */
  readonly loginThrottling: Omit<AuthSettings, "tokenTtlSeconds">
  /** Addresses and CIDR ranges whose `X-Forwarded-For` is believed; none by default. */
  readonly trustedProxies: ReadonlyArray<string>
}

export const inMemoryDataDir = "memory://"

export const isInMemory = (dataDir: string): boolean => dataDir === inMemoryDataDir

const logLevels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const satisfies Record<string, LogLevel>

// An empty variable (`JWT_SECRET=`) means unset, as a shell or a compose file easily produces one.
const optionalSecret = (name: string) =>
  Config.option(Config.Redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).length > 0))
  )

const positiveInt = (name: string, defaultValue: number) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(defaultValue))

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
  jwtSecret: optionalSecret("JWT_SECRET"),
  tokenTtlSeconds: Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "TOKEN_TTL_SECONDS").pipe(
    Config.withDefault(3600)
  ),
  adminName: Config.NonEmptyString("ADMIN_NAME").pipe(Config.withDefault("admin")),
  adminPassword: optionalSecret("ADMIN_PASSWORD"),
  logLevel: Config.Literals(["debug", "info", "warn", "error"], "LOG_LEVEL").pipe(
    Config.withDefault("info"),
    Config.map((name) => logLevels[name])
  ),
  loginThrottling: Config.all({
    freeFailuresPerNameAndAddress: positiveInt("LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS", 5),
    freeFailuresPerAddress: positiveInt("LOGIN_FREE_FAILURES_PER_ADDRESS", 20),
    firstDelaySeconds: positiveInt("LOGIN_FIRST_DELAY_SECONDS", 1),
    maxDelaySeconds: positiveInt("LOGIN_MAX_DELAY_SECONDS", 300),
    failureWindowSeconds: positiveInt("LOGIN_FAILURE_WINDOW_SECONDS", 900)
  }),
  trustedProxies: commaSeparated("TRUSTED_PROXIES")
})

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("@club/server/AppConfig") {
  /** Read from the current `ConfigProvider` (the process environment by default). */
  static readonly layer = Layer.effect(AppConfig, Effect.map(appConfig, AppConfig.of))
}
