import type { IncomingMessage } from "node:http"
import type { Http2ServerRequest } from "node:http2"

/** The length prefix of a gRPC message (the gRPC HTTP/2 protocol, Length-Prefixed-Message): flags, then length. */
const prefixBytes = 5

/**
 * A gRPC request body, read as far as needed to know whether it is one plain message:
 * - `message`: exactly one uncompressed message within the limit, nothing after it;
 * - `other`: anything else (no message, a cut one, a compressed one, one over the limit, a
 *   second one): the chunks read so far and the rest of the body, unread, for connect-node to
 *   refuse as it refuses such a body;
 * - `gone`: the client went away while it was read.
 */
export type GrpcBody =
  | { readonly kind: "message"; readonly message: Buffer }
  | { readonly kind: "other"; readonly body: AsyncIterable<Uint8Array> }
  | { readonly kind: "gone" }

/**
 * The chunks already read, then what the request still sends. Left before the end (connect-node
 * stops at the first error), it destroys the request as connect-node's own reading of it does, so
 * that a client still sending is stopped.
 */
async function* replay(
  chunks: ReadonlyArray<Buffer>,
  request: IncomingMessage | Http2ServerRequest,
  ended: boolean
): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks
    if (!ended) yield* request
  } finally {
    if (!request.readableEnded) request.destroy()
  }
}

/**
 * Reads a gRPC unary call's body: to its end when it holds one plain message, and stops (the
 * request paused) as soon as it is something else, which is never read further than connect-node
 * would have read it by then.
 */
export const readGrpcBody = (request: IncomingMessage | Http2ServerRequest, readMaxBytes: number) =>
  new Promise<GrpcBody>((resolve) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    // The body's length if it is one message, known once its prefix is read.
    let expected = -1
    const settle = (body: GrpcBody) => {
      request.off("data", onData)
      request.off("end", onEnd)
      request.off("error", onGone)
      request.off("aborted", onGone)
      resolve(body)
    }
    const other = (ended: boolean) => {
      if (!ended) request.pause()
      settle({ kind: "other", body: replay(chunks, request, ended) })
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      bytes += chunk.byteLength
      if (expected < 0 && bytes >= prefixBytes) {
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks, bytes)
        const length = head.readUInt32BE(1)
        // A flag (compressed, or one this server does not know) or an oversize message.
        if (head[0] !== 0 || length > readMaxBytes) return other(false)
        expected = prefixBytes + length
      }
      if (expected >= 0 && bytes > expected) other(false)
    }
    const onEnd = () => {
      if (bytes !== expected) return other(true)
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes)
      settle({ kind: "message", message: body.subarray(prefixBytes) })
    }
    const onGone = () => settle({ kind: "gone" })
    request.on("data", onData)
    request.once("end", onEnd)
    request.once("error", onGone)
    request.once("aborted", onGone)
  })
