import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { Code } from "@connectrpc/connect"
import { connectErrorAnswer } from "./connectErrorAnswer.ts"
import { grpcStatusMessage } from "./grpcStatusMessage.ts"

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeHandler = (request: NodeRequest, response: ServerResponse | Http2ServerResponse) => void

/** `application/grpc`, `application/grpc+proto`, `application/grpc-web+json`, `application/grpc-web-text`, … */
const grpcContentType = /^application\/grpc(-web(-text)?)?(\+[a-z]+)?\s*(;|$)/iu

const pathOf = (request: NodeRequest) => request.url?.split("?")[0] ?? ""

/** gRPC's `unimplemented` status (the gRPC status codes). */
const grpcUnimplemented = "12"

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
