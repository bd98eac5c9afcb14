import { ConnectError } from "@connectrpc/connect"
import { compressionNegotiate, type UniversalHandlerOptions } from "@connectrpc/connect/protocol"
import { codeToHttpStatus, errorToJsonBytes } from "@connectrpc/connect/protocol-connect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { readBody } from "./readBody.ts"
import type { FastCall } from "./FastCall.ts"
import { goneSignal, runFastCall } from "./runFastCall.ts"

/**
 * A unary call of the Connect protocol (a POST of JSON or binary, its length declared), answered
 * as connect-node's handler answers it, with connect's own pieces: the method's serialization,
 * `errorToJsonBytes`, `codeToHttpStatus` and `compressionNegotiate`.
 */
export const makeConnectUnaryAnswer =
  <R>(run: EdgeRunner<R>, options: UniversalHandlerOptions) =>
  async (call: FastCall<R>, length: number): Promise<void> => {
    const { binary } = call
    const request = call.request as IncomingMessage
    const response = call.response
    const gone = goneSignal(response)
    const outcome = await runFastCall(run, call, readBody(request, length), gone)
    if (gone.aborted) return
    const failed = outcome instanceof ConnectError
    const status = failed ? codeToHttpStatus(outcome.code) : 200
    const contentType = failed || !binary ? "application/json" : "application/proto"
    let body = failed ? errorToJsonBytes(outcome, options.jsonOptions) : outcome
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
