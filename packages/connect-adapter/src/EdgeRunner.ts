import type { DomainError } from "@club/core"
import { Cause, type Context, Effect, Exit, Option } from "effect"
import { Code, ConnectError } from "@connectrpc/connect"
import { toConnectError } from "./toConnectError.ts"

/** What a Connect handler or interceptor knows about the call it serves. */
export interface Call {
  readonly signal: AbortSignal
  readonly method: { readonly name: string }
}

/** Runs a use-case for one call, resolving with its value or rejecting with a ConnectError. */
export type EdgeRunner<R> = <A>(effect: Effect.Effect<A, DomainError, R>, call: Call) => Promise<A>

/** Runs effects with the services captured from the application's context (its logger included). */
export const makeEdgeRunner = <R>(context: Context.Context<R>): EdgeRunner<R> => {
  const runExit = Effect.runPromiseExitWith(context)
  return async (effect, call) => {
    const exit = await runExit(
      effect.pipe(
        Effect.catchCause((cause) => Effect.flatMap(toConnectError(cause), Effect.fail)),
        Effect.annotateLogs("rpc", call.method.name)
      ),
      // The caller going away (or its deadline) interrupts the fiber, and so the use-case.
      { signal: call.signal }
    )
    if (Exit.isSuccess(exit)) return exit.value
    throw Option.getOrElse(
      Cause.findErrorOption(exit.cause),
      () => new ConnectError("The call was cancelled", Code.Canceled)
    )
  }
}
