import { ConnectError } from "@connectrpc/connect"
import {
  compressionNegotiate,
  encodeEnvelope,
  envelopeCompress,
  type UniversalHandlerOptions
} from "@connectrpc/connect/protocol"
import { grpcStatusOk, setTrailerStatus } from "@connectrpc/connect/protocol-grpc"
import { trailerFlag, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web"
import type { ServerResponse } from "node:http"
import type { Http2ServerResponse } from "node:http2"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { type BodyRead, readBodyUpTo } from "./readBodyUpTo.ts"
import type { FastCall } from "./FastCall.ts"
import { goneSignal, runFastCall } from "./runFastCall.ts"

/** The length prefix of an enveloped message: one byte of flags, four of length. */
const envelopeHeaderBytes = 5

/** The whole body, when it is exactly one uncompressed message envelope. */
const singleMessage = (read: BodyRead): Buffer | undefined => {
  if (!read.complete || read.bytes < envelopeHeaderBytes) return undefined
  const body = read.chunks.length === 1 ? read.chunks[0]! : Buffer.concat(read.chunks, read.bytes)
  return body[0] === 0 && body.readUInt32BE(1) === body.byteLength - envelopeHeaderBytes
    ? body.subarray(envelopeHeaderBytes)
    : undefined
}

/**
 * A unary call over gRPC (HTTP/2) or gRPC-Web (HTTP/1.1), answered as connect-node's handlers
 * answer it, with connect's own pieces: the method's serialization, `setTrailerStatus`,
 * `trailerSerialize`, `encodeEnvelope`, `envelopeCompress` and `compressionNegotiate`. The headers
 * (content type, `grpc-encoding` when the client accepts a compression) go first; then the answer's
 * envelope, if any; then the status: as HTTP/2 trailers for gRPC, as the trailer envelope for
 * gRPC-Web. A body that is not exactly one uncompressed message envelope within the size limit
 * (several messages, a compressed or cut one, an oversize one) is handed to connect-node with the
 * bytes already read (`handOver`), so that it is refused exactly as connect-node refuses it.
 */
export const makeGrpcUnaryAnswer = <R>(
  run: EdgeRunner<R>,
  options: UniversalHandlerOptions,
  handOver: (call: FastCall<R>, read: BodyRead) => void
) =>
async (call: FastCall<R>, web: boolean): Promise<void> => {
  const { binary, request, response } = call
  const read = await readBodyUpTo(request, options.readMaxBytes + envelopeHeaderBytes)
  if (read === undefined) return
  const message = singleMessage(read)
  if (message === undefined) return handOver(call, read)
  const gone = goneSignal(response)
  const trailer = new Headers({ "grpc-status": grpcStatusOk })
  const outcome = await runFastCall(run, call, message, gone)
  if (gone.aborted) return
  const answer = outcome instanceof ConnectError ? undefined : outcome
  if (outcome instanceof ConnectError) setTrailerStatus(trailer, outcome)
  const accepted = request.headers["grpc-accept-encoding"]
  const compression = typeof accepted === "string"
    ? compressionNegotiate(options.acceptCompression, null, accepted, "Grpc-Accept-Encoding").response
    : null
  const contentType = `application/${web ? "grpc-web" : "grpc"}+${binary ? "proto" : "json"}`
  const head: Record<string, string> = { "content-type": contentType }
  if (compression !== null) head["grpc-encoding"] = compression.name
  const envelope = async (flags: number, data: Uint8Array) => {
    const compressed = await envelopeCompress({ flags, data }, compression, options.compressMinBytes)
    return encodeEnvelope(compressed.flags, compressed.data)
  }
  const body = answer === undefined ? undefined : await envelope(0, answer)
  const webTrailer = web ? await envelope(trailerFlag, trailerSerialize(trailer)) : undefined
  if (gone.aborted) return
  ;(response as ServerResponse).writeHead(200, head)
  if (body !== undefined) (response as ServerResponse).write(body)
  if (webTrailer !== undefined) return void response.end(webTrailer)
  ;(response as Http2ServerResponse).addTrailers(Object.fromEntries(trailer))
  response.end()
}
