import { isOutcomeUnknown, isUnavailable } from "@club/core"
import { Effect, Layer } from "effect"
import { Availability } from "@club/contract/rest"
import { Unavailable } from "@club/contract/rest"
import { requestPath } from "./problems.ts"

const unavailableDetail = "The database is unreachable; retry later"

/** Said of a write whose commit the database did not confirm (core's `WriteOutcomeUnknown`). */
export const outcomeUnknownDetail = "The write may have happened; retry with an Idempotency-Key"

/**
 * The one place where an outage becomes the caller's 503: a port's defect that `isUnavailable`
 * recognises (core's `StoreUnavailable`: the store refused, cut or timed out the connection) is
 * answered as a problem, so the caller learns to retry rather than receiving an empty 500. So is a
 * write whose commit was not confirmed (`isOutcomeUnknown`), but saying that it may have happened:
 * only a retry with an idempotency key is safe then (its record commits with the write, so the
 * retry finds the answer if the write was kept). Every other defect stays one.
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
        : isOutcomeUnknown(defect)
        ? Effect.logWarning("Answered 503: a write's commit was not confirmed", String(defect)).pipe(
          Effect.andThen(requestPath),
          Effect.flatMap((instance) => Effect.fail(new Unavailable({ detail: outcomeUnknownDetail, instance })))
        )
        : Effect.die(defect))
)
