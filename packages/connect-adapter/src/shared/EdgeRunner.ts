import type { DomainError } from "@club/core"
import { Cause, Context, Effect, Exit, Option, References, type Tracer } from "effect"
import { Headers, HttpTraceContext } from "effect/http"
import { Code, ConnectError, type ContextKey, createContextKey } from "@connectrpc/connect"
import { toConnectError } from "./toConnectError.ts"

/** What a Connect handler or interceptor knows about the call it serves. */
export interface Call {
  readonly signal: AbortSignal
  readonly method: { readonly name: string; readonly parent?: { readonly typeName: string } | undefined }
  /** The request's headers (a handler's context has them as `requestHeader`). */
  readonly requestHeader?: { get(name: string): string | null } | undefined
  /** The call's server span, opened by `serve` around this run. */
  readonly span?: Tracer.Span | undefined
  /** A handler's context values, where the interceptor left the call's span (`rpcSpanKey`). */
  readonly values?: { get<T>(key: ContextKey<T>): T } | undefined
}

/**
 * The header naming the request; the server sets it on every request before Connect reads it
 * (taken from the client when sane, generated otherwise), and on every answer.
 */
const requestIdHeader = "x-request-id"

/** Runs a use-case for one call, resolving with its value or rejecting with a ConnectError. */
export interface EdgeRunner<R> {
  <A>(effect: Effect.Effect<A, DomainError, R>, call: Call): Promise<A>
  /**
   * Runs `body`, and every run it makes for the call, within one server span for the call (when
   * tracing is on; without a span otherwise): what an interceptor uses to enclose itself and the
   * handler after it. `body`'s rejection is passed on as it is.
   */
  readonly serve: <A>(call: Call, body: (span: Tracer.Span | undefined) => Promise<A>) => Promise<A>
}

/** The span `serve` opened for a call, for the handler's run. */
export const rpcSpanKey = createContextKey<Tracer.Span | undefined>(undefined, {
  description: "the call's server span"
})

const annotationsOf = (call: Call): Record<string, string> => {
  const requestId = call.requestHeader?.get(requestIdHeader) ?? null
  return requestId === null ? { rpc: call.method.name } : { rpc: call.method.name, requestId }
}

/** OpenTelemetry's name for an RPC span: `todo.TodoService/CreateTask`. */
const spanName = (call: Call) =>
  call.method.parent === undefined ? call.method.name : `${call.method.parent.typeName}/${call.method.name}`

/** A server span, the child of the client's `traceparent` (or `b3`) when it sent one. */
const serverSpan = (call: Call): Tracer.SpanOptionsNoTrace => {
  const header = (name: string) => call.requestHeader?.get(name) ?? undefined
  const traceparent = header("traceparent")
  const b3 = header("b3")
  const parent = traceparent === undefined && b3 === undefined
    ? undefined
    : Option.getOrUndefined(
      HttpTraceContext.fromHeaders(Headers.fromInput({ ...(traceparent && { traceparent }), ...(b3 && { b3 }) }))
    )
  return {
    kind: "server",
    parent,
    attributes: {
      "rpc.system": "connect_rpc",
      "rpc.service": call.method.parent?.typeName,
      "rpc.method": call.method.name
    }
  }
}

/**
 * Runs effects with the services captured from the application's context (its logger included).
 * With tracing on (`References.TracerEnabled`), each call is one server span, whose children are
 * the spans of the use-cases it runs; with it off, no span is made.
 */
export const makeEdgeRunner = <R>(context: Context.Context<R>): EdgeRunner<R> => {
  const runExit = Effect.runPromiseExitWith(context)
  const tracing = Context.get(context, References.TracerEnabled)
  const run = async <A>(effect: Effect.Effect<A, DomainError, R>, call: Call): Promise<A> => {
    let program = effect.pipe(
      Effect.catchCause((cause) => Effect.flatMap(toConnectError(cause), Effect.fail)),
      // Every line logged while serving the call names it, and the request it came in.
      Effect.annotateLogs(annotationsOf(call))
    )
    if (tracing) {
      const span = call.span ?? call.values?.get(rpcSpanKey)
      program = span === undefined
        ? Effect.withSpan(program, spanName(call), serverSpan(call))
        : Effect.withParentSpan(program, span)
    }
    // The caller going away (or its deadline) interrupts the fiber, and so the use-case.
    const exit = await runExit(program, { signal: call.signal })
    if (Exit.isSuccess(exit)) return exit.value
    throw Option.getOrElse(
      Cause.findErrorOption(exit.cause),
      () => new ConnectError("The call was cancelled", Code.Canceled)
    )
  }
  const serve = async <A>(call: Call, body: (span: Tracer.Span | undefined) => Promise<A>): Promise<A> => {
    if (!tracing) return body(undefined)
    const exit = await runExit(
      Effect.useSpan(
        spanName(call),
        serverSpan(call),
        (span) => Effect.tryPromise({ try: () => body(span), catch: (error) => error })
      )
    )
    if (Exit.isSuccess(exit)) return exit.value
    throw Option.getOrElse(
      Cause.findErrorOption(exit.cause),
      () => new ConnectError("The call was cancelled", Code.Canceled)
    )
  }
  return Object.assign(run, { serve })
}
