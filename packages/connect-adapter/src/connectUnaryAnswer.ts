import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf"
import { Code, ConnectError } from "@connectrpc/connect"
import { compressionNegotiate, type UniversalHandlerOptions } from "@connectrpc/connect/protocol"
import { codeToHttpStatus, errorToJsonBytes } from "@connectrpc/connect/protocol-connect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { readBody } from "./readBody.ts"
import type { FastCall } from "./FastCall.ts"

/**
 * A unary call of the Connect protocol (a POST of JSON or binary, its length declared), answered
 * as connect-node's handler answers it, with connect's own pieces: the method's serialization,
 * `errorToJsonBytes`, `codeToHttpStatus` and `compressionNegotiate`.
 */
export const makeConnectUnaryAnswer =
  <R>(run: EdgeRunner<R>, options: UniversalHandlerOptions) =>
  async (call: FastCall<R>, length: number): Promise<void> => {
    const { binary, route } = call
    const request = call.request as IncomingMessage
    const response = call.response
    const gone = new AbortController()
    response.once("close", () => {
      if (!response.writableFinished) gone.abort()
    })
    let status = 200
    let contentType = binary ? "application/proto" : "application/json"
    let body: Uint8Array
    try {
      const input = route.serialization.getI(binary).parse(await readBody(request, length))
      const output = await run(route.invoke(input as never, request.headers.authorization ?? null), {
        signal: gone.signal,
        method: route.method,
        requestHeader: call.requestHeader
      })
      body = route.serialization.getO(binary).serialize(
        create(route.method.output, output as MessageInitShape<DescMessage>)
      )
    } catch (cause) {
      if (gone.signal.aborted) return
      const error = cause instanceof ConnectError
        ? cause
        : new ConnectError("internal error", Code.Internal, undefined, undefined, cause)
      status = codeToHttpStatus(error.code)
      contentType = "application/json"
      body = errorToJsonBytes(error, options.jsonOptions)
    }
    if (gone.signal.aborted) return
    const headers: Record<string, string> = { "content-type": contentType }
    const accepted = request.headers["accept-encoding"] ?? null
    const compression = accepted === null
      ? undefined
      : compressionNegotiate(options.acceptCompression, null, accepted, "Accept-Encoding").response
    if (compression !== null && compression !== undefined && body.byteLength >= options.compressMinBytes) {
      body = await compression.compress(body)
      headers["content-encoding"] = compression.name
    }
    headers["content-length"] = String(body.byteLength)
    ;(response as ServerResponse).writeHead(status, headers)
    response.end(body)
  }
