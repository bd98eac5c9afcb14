import type { DomainError } from "@club/core"
import { Cause, type Context, Effect, Exit, Option } from "effect"
import { Code, ConnectError } from "@connectrpc/connect"
import { toConnectError } from "./toConnectError.ts"

/** What a Connect handler or interceptor knows about the call it serves. */
export interface Call {
  readonly signal: AbortSignal
  readonly method: { readonly name: string }
  /** The request's headers (a handler's context has them as `requestHeader`). */
  readonly requestHeader?: { get(name: string): string | null } | undefined
}

/**
 * The header naming the request; the server sets it on every request before Connect reads it
 * (taken from the client when sane, generated otherwise), and on every answer.
 */
const requestIdHeader = "x-request-id"

/** Runs a use-case for one call, resolving with its value or rejecting with a ConnectError. */
export type EdgeRunner<R> = <A>(effect: Effect.Effect<A, DomainError, R>, call: Call) => Promise<A>

const annotationsOf = (call: Call): Record<string, string> => {
  const requestId = call.requestHeader?.get(requestIdHeader) ?? null
  return requestId === null ? { rpc: call.method.name } : { rpc: call.method.name, requestId }
}

/** Runs effects with the services captured from the application's context (its logger included). */
export const makeEdgeRunner = <R>(context: Context.Context<R>): EdgeRunner<R> => {
  const runExit = Effect.runPromiseExitWith(context)
  return async (effect, call) => {
    const exit = await runExit(
      effect.pipe(
        Effect.catchCause((cause) => Effect.flatMap(toConnectError(cause), Effect.fail)),
        // Every line logged while serving the call names it, and the request it came in.
        Effect.annotateLogs(annotationsOf(call))
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
