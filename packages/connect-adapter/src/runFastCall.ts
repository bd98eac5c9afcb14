import { Code, ConnectError } from "@connectrpc/connect"
import type { EdgeRunner } from "./EdgeRunner.ts"
import type { FastCall } from "./FastCall.ts"

/** A signal aborted when the client goes before the answer is written. */
export const goneSignal = (response: FastCall<unknown>["response"]): AbortSignal => {
  const gone = new AbortController()
  response.once("close", () => {
    if (!response.writableFinished) gone.abort()
  })
  return gone.signal
}

/**
 * What every protocol of the fast path does alike: the request message parsed with the method's
 * own serialization, the route run on the edge runner, and its answer written (`answerWriter.ts`).
 * Resolves to the answer's bytes or to the ConnectError to send (any other failure is the
 * `internal error` that connect-node sends for it).
 */
export const runFastCall = async <R>(
  run: EdgeRunner<R>,
  call: FastCall<R>,
  message: Uint8Array | Promise<Uint8Array>,
  gone: AbortSignal
): Promise<Uint8Array | ConnectError> => {
  const { binary, request, route } = call
  try {
    const input = route.serialization.getI(binary).parse(await message)
    const output = await run(route.invoke(input as never, request.headers.authorization ?? null), {
      signal: gone,
      method: route.method,
      requestHeader: call.requestHeader
    })
    return route.writeAnswer(binary, output)
  } catch (cause) {
    return cause instanceof ConnectError
      ? cause
      : new ConnectError("internal error", Code.Internal, undefined, undefined, cause)
  }
}
