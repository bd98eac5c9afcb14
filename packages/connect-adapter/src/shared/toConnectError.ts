import { type DomainError, isOutcomeUnknown, isUnavailable } from "@club/core"
import { Cause, Effect, Option } from "effect"
import { Code, ConnectError } from "@connectrpc/connect"
import { categoryToCode } from "./categoryToCode.ts"

/**
 * The error a failed call answers. A domain error keeps its message, which names what was wrong;
 * an outage (the database unreachable) answers `unavailable`, which clients may retry; a write whose
 * commit was not confirmed answers `unknown` (not `unavailable`, which gRPC clients may retry by
 * themselves: the write may have happened, and a retry could make it twice); any other defect is logged and answered with a generic message, so that no internals reach the caller.
 */
export const toConnectError = (cause: Cause.Cause<DomainError>): Effect.Effect<ConnectError> =>
  Option.match(Cause.findErrorOption(cause), {
    onSome: (error) => Effect.succeed(new ConnectError(error.message, categoryToCode(error.category))),
    onNone: () => {
      if (Cause.hasInterruptsOnly(cause)) {
        return Effect.succeed(new ConnectError("The call was cancelled", Code.Canceled))
      }
      const unknown = cause.reasons.filter(Cause.isDieReason).find((reason) => isOutcomeUnknown(reason.defect))
      if (unknown !== undefined) {
        return Effect.logWarning(
          "TodoService call answered unknown: a write's commit was not confirmed",
          String(unknown.defect)
        )
          .pipe(Effect.as(new ConnectError("The write may have happened; it was not confirmed", Code.Unknown)))
      }
      const outage = cause.reasons.filter(Cause.isDieReason).find((reason) => isUnavailable(reason.defect))
      // Debug only for an outage: every call fails alike, and readiness already warns once per probe.
      return outage !== undefined
        ? Effect.logDebug("TodoService call answered unavailable: the database is unreachable", String(outage.defect))
          .pipe(
            Effect.as(new ConnectError("The database is unreachable; retry later", Code.Unavailable))
          )
        : Effect.logError("TodoService call failed", cause).pipe(
          Effect.as(new ConnectError("Internal server error", Code.Internal))
        )
    }
  })
