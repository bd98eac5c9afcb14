import type { IncomingMessage } from "node:http"
import type { Http2ServerRequest } from "node:http2"

/** What `readBodyUpTo` read: the chunks, and whether they are the whole body. */
export interface BodyRead {
  readonly chunks: ReadonlyArray<Buffer>
  readonly bytes: number
  readonly complete: boolean
}

/**
 * Reads a request body until it ends, or until more than `maxBytes` have arrived: then the request
 * is paused with the rest unread, for whoever reads it next. Resolves undefined when the client
 * goes away first.
 */
export const readBodyUpTo = (
  request: IncomingMessage | Http2ServerRequest,
  maxBytes: number
): Promise<BodyRead | undefined> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const settle = (read: BodyRead | undefined) => {
      request.off("data", onData)
      request.off("end", onEnd)
      request.off("aborted", onGone)
      request.off("close", onGone)
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      bytes += chunk.byteLength
      if (bytes > maxBytes) {
        request.pause()
        settle({ chunks, bytes, complete: false })
      }
    }
    const onEnd = () => settle({ chunks, bytes, complete: true })
    const onGone = () => settle(undefined)
    request.on("data", onData)
    request.once("end", onEnd)
    // Kept after settling too: an error of the request later must not go unhandled.
    request.on("error", onGone)
    request.once("aborted", onGone)
    // Closed before its end: the client went away (after the end, the body is already settled).
    request.once("close", onGone)
  })
