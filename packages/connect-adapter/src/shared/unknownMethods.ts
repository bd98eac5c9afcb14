import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { Code } from "@connectrpc/connect"
import { connectErrorAnswer } from "./connectErrorAnswer.ts"

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeHandler = (request: NodeRequest, response: ServerResponse | Http2ServerResponse) => void

/** `application/grpc`, `application/grpc+proto`, `application/grpc-web+json`, `application/grpc-web-text`, … */
const grpcContentType = /^application\/grpc(-web(-text)?)?(\+[a-z]+)?\s*(;|$)/iu

const pathOf = (request: NodeRequest) => request.url?.split("?")[0] ?? ""

/** gRPC's `unimplemented` status (the gRPC status codes). */
const grpcUnimplemented = "12"

/**
 * A status message as the gRPC HTTP/2 protocol encodes it (Status-Message): the UTF-8 bytes outside
 * 0x20–0x7E, and "%" itself, percent-encoded; every other character as it is. connect-es's own
 * encoder is not part of its public API; this is the same encoding as its patched one
 * (patches/README.md), so an answer from here and one from connect-node read alike.
 */
const grpcStatusMessage = (message: string): string => {
  if (/^[\x20-\x24\x26-\x7E]*$/u.test(message)) return message
  let encoded = ""
  for (const byte of new TextEncoder().encode(message)) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return encoded
}

/**
 * A call of a method no route serves is answered `unimplemented` the way its protocol says: a gRPC
 * or gRPC-Web call (by its content type, whatever the service) with a trailers-only response, HTTP
 * 200 and `grpc-status: 12`, as grpc-go does (a gRPC client reads a bare 404 as a transport
 * failure); a Connect call under one of `servicePrefixes` with the Connect error JSON and HTTP 501
 * (the Connect protocol's status for `unimplemented`). Any other request goes to `next`; the
 * listener routes none there (it sends this handler only gRPC content types and these services'
 * paths). The body is not read: the listener drains an HTTP/2 stream answered early.
 */
export const answerUnknownMethods =
  (servicePrefixes: ReadonlyArray<string>, next: NodeHandler): NodeHandler => (request, response) => {
    const path = pathOf(request)
    const message = `unknown method ${path}`
    const contentType = request.headers["content-type"] ?? ""
    if (grpcContentType.test(contentType)) {
      request.resume()
      ;(response as ServerResponse).writeHead(200, {
        "content-type": contentType,
        "grpc-message": grpcStatusMessage(message),
        "grpc-status": grpcUnimplemented
      })
      return void response.end()
    }
    if (servicePrefixes.some((prefix) => path.startsWith(prefix))) {
      request.resume()
      const { body, status } = connectErrorAnswer(Code.Unimplemented, message)
      ;(response as ServerResponse).writeHead(status, {
        "content-type": "application/json",
        "content-length": String(body.byteLength)
      })
      return void response.end(body)
    }
    next(request, response)
  }
