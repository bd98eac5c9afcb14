import { Code, ConnectError } from "@connectrpc/connect"
import { codeToHttpStatus, errorToJsonBytes } from "@connectrpc/connect/protocol-connect"
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeHandler = (request: NodeRequest, response: ServerResponse | Http2ServerResponse) => void

/** `application/grpc`, `application/grpc+proto`, `application/grpc-web+json`, `application/grpc-web-text`, … */
const grpcContentType = /^application\/grpc(-web(-text)?)?(\+[a-z]+)?\s*(;|$)/iu

const pathOf = (request: NodeRequest) => request.url?.split("?")[0] ?? ""

/**
 * A call of a method no route serves is answered `unimplemented` the way its protocol says: a gRPC
 * or gRPC-Web call (by its content type, whatever the service) with a trailers-only response, HTTP
 * 200 and `grpc-status: 12`, as grpc-go does (a gRPC client reads a bare 404 as a transport
 * failure); a Connect call under one of `servicePrefixes` with the Connect error JSON. Any other
 * request goes to `next`. The body is not read: the listener drains an HTTP/2 stream answered early.
 */
export const answerUnknownMethods =
  (servicePrefixes: ReadonlyArray<string>, next: NodeHandler): NodeHandler => (request, response) => {
    const path = pathOf(request)
    // Built only for a call answered here: every REST request passes this way.
    const unknownMethod = () => new ConnectError(`unknown method ${path}`, Code.Unimplemented)
    const contentType = request.headers["content-type"] ?? ""
    if (grpcContentType.test(contentType)) {
      request.resume()
      ;(response as ServerResponse).writeHead(200, {
        "content-type": contentType,
        ...Object.fromEntries(setTrailerStatus(new Headers(), unknownMethod()))
      })
      return void response.end()
    }
    if (servicePrefixes.some((prefix) => path.startsWith(prefix))) {
      request.resume()
      const error = unknownMethod()
      const body = errorToJsonBytes(error, {})
      ;(response as ServerResponse).writeHead(codeToHttpStatus(error.code), {
        "content-type": "application/json",
        "content-length": String(body.byteLength)
      })
      return void response.end(body)
    }
    next(request, response)
  }
