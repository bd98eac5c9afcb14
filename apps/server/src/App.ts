import { makeTodoNodeHandlerFactory, servedServicePaths } from "@club/connect-adapter"
import { IdempotentRequests, UseCasesLive, UserService } from "@club/core"
import { HmacCursorSeal, HmacUnsubscribeSeal, JwtTokenSigner, ScryptPasswordHasher } from "@club/crypto-adapter"
import { RestApiLive } from "@club/http-adapter"
import { Cause, Effect, Layer } from "effect"
import { failureReason } from "./shared/failureReason.ts"
import { AppConfig } from "./AppConfig.ts"
import { AuthSettingsFromConfig } from "./auth/AuthSettingsFromConfig.ts"
import { PersistenceLive } from "./database/Database.ts"
import * as FirstAdmin from "./auth/FirstAdmin.ts"
import { IdempotencySettingsFromConfig } from "./shared/IdempotencySettingsFromConfig.ts"
import { loadJwtSecret } from "./auth/JwtSecret.ts"
import * as Listener from "./Listener.ts"
import { JsonLogger, MinimumLogLevelFromConfig } from "./observability/Logging.ts"
import { ReadinessLive } from "./health/ReadinessLive.ts"
import type { ServingLimits } from "./listener/ServingLimits.ts"
import { RequestLimits } from "./shared/RequestLimits.ts"
import { RetentionPurgeLive, RetentionSettingsFromConfig } from "./retention/RetentionPurge.ts"
import { ScheduleSettingsFromConfig } from "./planning/ScheduleSettingsFromConfig.ts"
import { SeriesExtensionLive, SeriesExtensionWakeLive } from "./planning/SeriesExtension.ts"
import * as Server from "./Server.ts"
import { MetricsLive } from "./observability/metrics/MetricsLive.ts"
import { TracingFromConfig } from "./observability/Tracing.ts"
import { TrustedProxiesFromConfig } from "./auth/TrustedProxiesFromConfig.ts"
import { NoticeDeliveryLive, NoticeSettingsFromConfig } from "./notices/NoticeDelivery.ts"
import { NodeHostResolver, WebhookDeliveryLive, WebhookRegistrationFromConfig } from "./webhooks/WebhookDelivery.ts"

/**
 * The hasher at its default cost, and the token signer and cursor seal on the secret from
 * JWT_SECRET or the one kept in DATA_DIR (JwtSecret.ts): one secret read, three keys derived from it
 * (the unsubscribe links' too).
 */
export const Security = Layer.mergeAll(
  ScryptPasswordHasher.layer(),
  Layer.unwrap(
    AppConfig.use((config) =>
      Effect.map(
        loadJwtSecret(config),
        (secret) =>
          Layer.mergeAll(
            JwtTokenSigner.layer(secret),
            HmacCursorSeal.layer(secret),
            HmacUnsubscribeSeal.layer(secret)
          )
      )
    )
  )
)

/**
 * Everything served over HTTP except Connect: the REST API, health, `/openapi.json` and `/docs`.
 * Its cursors are sealed by `Security`'s seal, the same layer the use-cases are given.
 */
export const Routes = RestApiLive.pipe(
  Layer.provide(ReadinessLive),
  Layer.provide(Layer.merge(PersistenceLive, Security))
)

/**
 * gRPC health's Watch streams take at most a tenth of the places the listener has (HTTP/2 streams,
 * connections): each one is answered for as long as its client stays, so the listener never evicts
 * it, and the other requests keep the rest.
 */
export const maxHealthWatches = (limits: ServingLimits) =>
  Math.max(1, Math.floor(Math.min(limits.maxStreams, limits.maxConnections) / 10))

/**
 * TodoService over Connect, gRPC-Web and gRPC, with gRPC health (on the same readiness as REST's
 * `/health/ready`) and reflection, beside the Effect app: the listener sends it the calls of these
 * services and gRPC calls, and every other request to the app. Health answers NOT_SERVING and ends
 * its watches once the listener starts draining.
 */
export const ConnectLive = Layer.effect(
  Listener.ConnectHandler,
  Effect.gen(function*() {
    const make = yield* makeTodoNodeHandlerFactory
    const { servingLimits } = yield* AppConfig
    return {
      servicePaths: servedServicePaths,
      handler: (draining) => make({ draining, health: { maxWatches: maxHealthWatches(servingLimits) } })
    }
  })
).pipe(Layer.provide(ReadinessLive), Layer.provide(PersistenceLive))

/**
 * Core's use-cases on their ports. Only the use-cases come out: whatever the program's context
 * holds is copied, service by service, several times per request (Effect copies a context when
 * it merges one into another), so the ports stay inside. The database is built once however many
 * layers are given it (layers are shared within one program).
 */
export const UseCases = UseCasesLive.pipe(Layer.provide(Layer.mergeAll(PersistenceLive, Security, NodeHostResolver)))

/** Writes sent with an `Idempotency-Key`, served once per caller and key (the REST API's `Idempotency`). */
export const IdempotentRequestsLive = IdempotentRequests.layer.pipe(Layer.provide(PersistenceLive))

export const FirstAdminLive = FirstAdmin.layer((name, password) =>
  UserService.use((users) => users.ensureFirstAdmin(name, password))
)

/** Request metrics and `/metrics` (METRICS), with the database pool's use. */
export const RequestMetricsLive = MetricsLive.pipe(Layer.provide(PersistenceLive))

/**
 * `provide` builds its argument first: the database (with its migrations), then the first
 * admin, then the listener. On shutdown the order reverses: the listener drains, then the
 * database pool and the embedded database close.
 */
export const App = Layer.mergeAll(
  Server.layer(Routes),
  Layer.mergeAll(SeriesExtensionLive(), WebhookDeliveryLive, RetentionPurgeLive, NoticeDeliveryLive).pipe(
    Layer.provide(Layer.mergeAll(PersistenceLive, NodeHostResolver, Security))
  )
).pipe(
  Layer.provide(ConnectLive),
  Layer.provide(RequestMetricsLive),
  Layer.provide(FirstAdminLive),
  Layer.provide(UseCases),
  Layer.provide(IdempotentRequestsLive)
)

/**
 * References read while requests run (log level, token lifetime, body limit, tracing: off, or the
 * OTLP exporter; trusted proxies; the retention of idempotency keys and of the rest) are set for the whole
 * program.
 */
const Settings = Layer.mergeAll(
  MinimumLogLevelFromConfig,
  AuthSettingsFromConfig,
  RequestLimits,
  TracingFromConfig,
  TrustedProxiesFromConfig,
  ScheduleSettingsFromConfig,
  SeriesExtensionWakeLive,
  WebhookRegistrationFromConfig,
  RetentionSettingsFromConfig,
  NoticeSettingsFromConfig
)

/**
 * The server until it is interrupted. A failure (one that stops the start, above all) is said in
 * one line, on standard error for whoever started it and in the JSON log with its whole cause.
 */
export const program = Layer.launch(App).pipe(
  Effect.provide(Settings),
  Effect.provide(IdempotencySettingsFromConfig),
  Effect.provide(AppConfig.layer),
  Effect.tapCause((cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.void
    const line = `The server stopped: ${failureReason(cause)}`
    return Effect.logError(line, cause).pipe(Effect.andThen(Effect.sync(() => process.stderr.write(`${line}\n`))))
  }),
  Effect.provide(JsonLogger)
)
