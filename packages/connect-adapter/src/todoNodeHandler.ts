import type { AuthService, TaskService } from "@club/core"
import type { JsonReadOptions, JsonWriteOptions } from "@bufbuild/protobuf"
import { type ConnectNodeAdapterOptions, connectNodeAdapter } from "@connectrpc/connect-node"
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { TodoService } from "@club/contract/todo"
import { makeTodoConnect } from "./TodoConnect.ts"
import { makeUnaryFastPath } from "./unaryFastPath.ts"
import { answerUnknownMethods } from "./unknownMethods.ts"

/** Requests whose path starts with this belong to the handler below. */
export const todoServicePathPrefix = `/${TodoService.typeName}/`

/** The request body limit of CONTRACT.md ("Limits"): 1 MiB. */
const readMaxBytes = 1024 * 1024

/** A request listener for both `http.createServer` and `http2.createServer`. */
export type TodoNodeHandler = (
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse
) => void

export type TodoNodeHandlerOptions = Partial<Omit<ConnectNodeAdapterOptions, "routes" | "interceptors" | "fallback">> & {
  /** Serve plain Connect unary calls without connect-node (see unaryFastPath.ts); on by default. */
  readonly fastPath?: boolean
  /**
   * Every request TodoService does not serve, but calls of unknown methods (gRPC and gRPC-Web ones,
   * and Connect ones under `/todo.TodoService/`), which are answered `unimplemented`. A 404 by default.
   */
  readonly fallback?: TodoNodeHandler | undefined
}

const notFound: TodoNodeHandler = (_request, response) => {
  ;(response as ServerResponse).writeHead(404)
  response.end()
}

interface Utf8Decoder {
  decode(input?: Uint8Array): string
}

/**
 * Request text that is not valid UTF-8 is the caller's error (invalid_argument), never stored with
 * U+FFFD in its place: connect's JSON serialization decodes with the `textDecoder` it is given.
 */
const strictUtf8: Utf8Decoder = new TextDecoder("utf-8", { fatal: true })

/**
 * Captures the application's services once; the returned function builds a node:http / node:http2
 * request handler serving TodoService over Connect (JSON and binary), gRPC-Web and gRPC. JSON
 * answers carry every field, defaults included (`"success": false`).
 */
export const makeTodoNodeHandlerFactory: Effect.Effect<
  (options?: TodoNodeHandlerOptions) => TodoNodeHandler,
  never,
  TaskService | AuthService
> = Effect.map(makeTodoConnect, ({ fastRoutes, interceptors, routes, run }) => (options = {}) => {
  const { fallback = notFound, fastPath: useFastPath = true, ...adapterOptions } = options
  // connect's own type for these options leaves out the decoder its JSON serialization reads.
  const jsonOptions: Partial<JsonReadOptions & JsonWriteOptions> & { readonly textDecoder: Utf8Decoder } = {
    alwaysEmitImplicit: true,
    textDecoder: strictUtf8,
    ...adapterOptions.jsonOptions
  }
  const stock = connectNodeAdapter({
    readMaxBytes,
    ...adapterOptions,
    jsonOptions,
    routes,
    interceptors,
    // The same objects connect-node hands its fallback, typed by it without `write`.
    fallback: answerUnknownMethods([todoServicePathPrefix], fallback) as NonNullable<ConnectNodeAdapterOptions["fallback"]>
  })
  if (!useFastPath) return stock
  const fast = makeUnaryFastPath(fastRoutes, run, { readMaxBytes: adapterOptions.readMaxBytes ?? readMaxBytes, jsonOptions })
  return (request, response) => {
    if (!fast(request, response)) stock(request, response)
  }
})

/** The handler of `makeTodoNodeHandlerFactory`, built at once. */
export const makeTodoNodeHandler = (options: TodoNodeHandlerOptions = {}) =>
  Effect.map(makeTodoNodeHandlerFactory, (make) => make(options))
