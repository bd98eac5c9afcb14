import { Readiness } from "@club/core"
import { Effect } from "effect"
import { HttpMiddleware } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Unavailable } from "@club/contract/rest"
import { ServedApi } from "../ServedApi.ts"

export const HealthHandlers = HttpApiBuilder.group(
  ServedApi,
  "health",
  Effect.fn(function*(handlers) {
    const readiness = yield* Readiness
    // Probes come every few seconds: they stay out of the request log.
    return handlers
      .handle("live", () => HttpMiddleware.withLoggerDisabled(Effect.succeed({ status: "ok" as const })))
      .handle("ready", () =>
        Effect.flatMap(readiness.check, (ready) =>
          ready
            ? Effect.succeed({ status: "ready" as const })
            : Effect.fail(new Unavailable({ detail: "Database unreachable", instance: "/health/ready" }))).pipe(
            HttpMiddleware.withLoggerDisabled
          ))
  })
)
