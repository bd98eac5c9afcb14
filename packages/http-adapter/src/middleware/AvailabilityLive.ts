import { isUnavailable } from "@club/core"
import { Effect, Layer } from "effect"
import { Availability } from "@club/contract/rest"
import { Unavailable } from "@club/contract/rest"
import { requestPath } from "../handlers/problems.ts"

const unavailableDetail = "The database is unreachable; retry later"

/**
 * The one place where an outage becomes the caller's 503: a port's defect that `isUnavailable`
 * recognises (core's `StoreUnavailable`: the store refused, cut or timed out the connection) is
 * answered as a problem, so the caller learns to retry rather than receiving an empty 500. Every
 * other defect stays one.
 */
export const AvailabilityLive = Layer.succeed(
  Availability,
  (httpEffect) =>
    Effect.catchDefect(httpEffect, (defect) =>
      isUnavailable(defect)
        // Debug only: during an outage every request lands here, and readiness already warns once per probe.
        ? Effect.logDebug("Answered 503: the database is unreachable", String(defect)).pipe(
          Effect.andThen(requestPath),
          Effect.flatMap((instance) => Effect.fail(new Unavailable({ detail: unavailableDetail, instance })))
        )
        : Effect.die(defect))
)
