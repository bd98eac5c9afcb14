import type { DomainError } from "@club/core"
import { Cause, Effect, Option } from "effect"
import { Code, ConnectError } from "@connectrpc/connect"
import { categoryToCode } from "./categoryToCode.ts"

/**
 * The error a failed call answers. A domain error keeps its message, which names what was wrong;
 * a defect is logged and answered with a generic message, so that no internals reach the caller.
 */
export const toConnectError = (cause: Cause.Cause<DomainError>): Effect.Effect<ConnectError> =>
  Option.match(Cause.findErrorOption(cause), {
    onSome: (error) => Effect.succeed(new ConnectError(error.message, categoryToCode(error.category))),
    onNone: () =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.succeed(new ConnectError("The call was cancelled", Code.Canceled))
        : Effect.logError("TodoService call failed", cause).pipe(
          Effect.as(new ConnectError("Internal server error", Code.Internal))
        )
  })
