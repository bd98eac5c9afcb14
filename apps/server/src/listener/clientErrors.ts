import { randomUUID } from "node:crypto"
import { STATUS_CODES } from "node:http"
import type * as Net from "node:net"

/** The answer Node gives an HTTP/1.1 request it could not parse, or that took too long, by the error's code. */
const statusOf = (code: string | undefined): number => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return 431
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return 408
    default:
      return 400
  }
}

/** A client that reset or closed the connection gets nothing: there is no one to answer. */
const clientGone = (code: string | undefined) => code === "ECONNRESET" || code === "EPIPE"

/**
 * Node's own answer to an HTTP/1.1 request it could not read (headers over the limit: 431; the
 * request timeout: 408; anything else: 400), written only when no answer has begun on the connection, and followed by a gentle close: Node destroys the socket at once, which while the
 * client is still sending (the rest of a 20 KiB header) makes the kernel answer with a reset, and
 * the client may never read the status.
 */
export const answerClientError =
  (closeGently: (socket: Net.Socket) => void, busy: (socket: Net.Socket) => boolean) =>
  (error: Error & { readonly code?: string }, socket: Net.Socket): void => {
    if (clientGone(error.code)) return void socket.destroy()
    if (socket.writable && !busy(socket)) {
      const status = statusOf(error.code)
      // No request was read, so no id could be taken from it: a new one, as every answer has.
      const requestId = randomUUID()
      socket.write(
        `HTTP/1.1 ${status} ${
          STATUS_CODES[status]
        }\r\nConnection: close\r\nContent-Length: 0\r\nX-Request-Id: ${requestId}\r\n\r\n`
      )
    }
    closeGently(socket)
  }
