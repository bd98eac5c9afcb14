import type { NodeRequest } from "./NodeHandler.ts"

/** gRPC and gRPC-Web by content type: `application/grpc`, `application/grpc+proto`, `application/grpc-web+json`, `application/grpc-web-text`, … */
export const grpcContentType = /^application\/grpc(-web(-text)?)?(\+[a-z]+)?\s*(;|$)/iu

/**
 * Whether a request is a call for the Connect handler, read from the request alone: a gRPC or
 * gRPC-Web content type (whatever its path: a call of an unknown service is answered
 * `unimplemented` in its own protocol), or a path under one of `servicePaths` (TodoService, gRPC
 * health, reflection: `/todo.TodoService/`, …), whatever its content type (a Connect unary call is
 * an `application/json` or `application/proto` POST). Every other request is REST, and goes to the
 * Effect app without passing through Connect: a Connect streaming content type at another path
 * too, which connect-node would not serve either. With no service, no request is a call.
 */
export const makeIsRpcRequest = (servicePaths: ReadonlyArray<string>): (request: NodeRequest) => boolean => {
  if (servicePaths.length === 0) return () => false
  return (request) => {
    const url = request.url ?? ""
    for (const path of servicePaths) if (url.startsWith(path)) return true
    const contentType = request.headers["content-type"]
    return contentType !== undefined && grpcContentType.test(contentType)
  }
}
