import type { AuthService, TaskService } from "@club/core"
import { type ConnectNodeAdapterOptions, connectNodeAdapter } from "@connectrpc/connect-node"
import { Effect } from "effect"
import { TodoService } from "./gen.ts"
import { makeTodoConnect } from "./TodoConnect.ts"

/** Requests whose path starts with this belong to the handler below. */
export const todoServicePathPrefix = `/${TodoService.typeName}/`

/** The request body limit of CONTRACT.md ("Limits"): 1 MiB. */
const readMaxBytes = 1024 * 1024

/** A request listener for both `http.createServer` and `http2.createServer`. */
export type TodoNodeHandler = ReturnType<typeof connectNodeAdapter>

export type TodoNodeHandlerOptions = Partial<Omit<ConnectNodeAdapterOptions, "routes" | "interceptors">>

/**
 * A node:http / node:http2 request handler serving TodoService over Connect (JSON and binary),
 * gRPC-Web and gRPC. JSON answers carry every field, defaults included (`"success": false`).
 */
export const makeTodoNodeHandler = (
  options: TodoNodeHandlerOptions = {}
): Effect.Effect<TodoNodeHandler, never, TaskService | AuthService> =>
  Effect.map(makeTodoConnect, ({ interceptors, routes }) =>
    connectNodeAdapter({
      readMaxBytes,
      ...options,
      jsonOptions: { alwaysEmitImplicit: true, ...options.jsonOptions },
      routes,
      interceptors
    }))
