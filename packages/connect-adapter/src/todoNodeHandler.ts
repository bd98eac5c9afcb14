import type { AuthService, TaskService } from "@club/core"
import { type ConnectNodeAdapterOptions, connectNodeAdapter } from "@connectrpc/connect-node"
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { TodoService } from "./gen.ts"
import { makeTodoConnect } from "./TodoConnect.ts"
import { makeUnaryFastPath } from "./unaryFastPath.ts"

/** Requests whose path starts with this belong to the handler below. */
export const todoServicePathPrefix = `/${TodoService.typeName}/`

/** The request body limit of CONTRACT.md ("Limits"): 1 MiB. */
const readMaxBytes = 1024 * 1024

/** A request listener for both `http.createServer` and `http2.createServer`. */
export type TodoNodeHandler = (
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse
) => void

export type TodoNodeHandlerOptions = Partial<Omit<ConnectNodeAdapterOptions, "routes" | "interceptors">> & {
  /** Serve plain Connect unary calls without connect-node (see unaryFastPath.ts); on by default. */
  readonly fastPath?: boolean
}

/**
 * A node:http / node:http2 request handler serving TodoService over Connect (JSON and binary),
 * gRPC-Web and gRPC. JSON answers carry every field, defaults included (`"success": false`).
 */
export const makeTodoNodeHandler = (
  options: TodoNodeHandlerOptions = {}
): Effect.Effect<TodoNodeHandler, never, TaskService | AuthService> =>
  Effect.map(makeTodoConnect, ({ fastRoutes, interceptors, routes, run }) => {
    const { fastPath: useFastPath = true, ...adapterOptions } = options
    const jsonOptions = { alwaysEmitImplicit: true, ...adapterOptions.jsonOptions }
    const stock = connectNodeAdapter({ readMaxBytes, ...adapterOptions, jsonOptions, routes, interceptors })
    if (!useFastPath) return stock
    const fast = makeUnaryFastPath(fastRoutes, run, { readMaxBytes: adapterOptions.readMaxBytes ?? readMaxBytes, jsonOptions })
    return (request, response) => {
      if (!fast(request, response)) stock(request, response)
    }
  })
