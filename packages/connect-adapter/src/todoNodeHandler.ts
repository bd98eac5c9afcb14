import { type AuthService, Readiness, type TaskService } from "@club/core"
import type { JsonReadOptions, JsonWriteOptions } from "@bufbuild/protobuf"
import { Code, ConnectError, createConnectRouter } from "@connectrpc/connect"
import {
  compressionBrotli,
  compressionGzip,
  type ConnectNodeAdapterOptions,
  connectNodeAdapter,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse
} from "@connectrpc/connect-node"
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { TodoService } from "@club/contract/todo"
import { GrpcHealth, type GrpcHealthOptions, Health } from "./health/grpcHealth.ts"
import { makeReflection, reflectionServices } from "./reflection/grpcReflection.ts"
import { makeConnectUnaryShortcut } from "./todo/connectUnaryShortcut.ts"
import { makeTodoConnect } from "./todo/TodoConnect.ts"
import { answerUnknownMethods } from "./shared/unknownMethods.ts"

/** Requests whose path starts with this belong to the handler below. */
export const todoServicePathPrefix = `/${TodoService.typeName}/`

/** Every service the handler serves: TodoService, gRPC health checking, gRPC reflection (v1, v1alpha). */
export const servedServices = [TodoService, Health, ...reflectionServices]

/** The path of every served service's calls: `/todo.TodoService/`, `/grpc.health.v1.Health/`, … */
export const servedServicePaths: ReadonlyArray<string> = servedServices.map((service) => `/${service.typeName}/`)

/** The request body limit of CONTRACT.md ("Limits"): 1 MiB. */
const readMaxBytes = 1024 * 1024

/** The answers' compressions, in the server's order, and the size from which an answer is compressed. */
const acceptCompression = [compressionGzip, compressionBrotli]
const compressMinBytes = 1024

/** A request listener for both `http.createServer` and `http2.createServer`. */
export type TodoNodeHandler = (
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse
) => void

export type TodoNodeHandlerOptions =
  & Partial<Omit<ConnectNodeAdapterOptions, "routes" | "interceptors" | "fallback">>
  & {
    /** Serve plain Connect unary calls of TodoService without connect-node (connectUnaryShortcut.ts); on by default. */
    readonly shortcut?: boolean | undefined
    /**
     * Every request the served services do not serve, but calls of unknown methods (gRPC and gRPC-Web
     * ones, and Connect ones under a served service's path), which are answered `unimplemented`. A
     * 404 by default. The server's listener sends this handler no other request (`isRpcRequest`), so
     * there it is never called.
     */
    readonly fallback?: TodoNodeHandler | undefined
    /**
     * Aborted when the server begins to shut down: gRPC health answers NOT_SERVING from then on and
     * ends its Watch streams, and reflection streams end between two requests; either would otherwise
     * hold the drain open as long as its client likes. Unlike connect's own `shutdownSignal`, it does
     * not cancel the calls being served.
     */
    readonly draining?: AbortSignal | undefined
    /** Bounds of gRPC health's Watch streams. */
    readonly health?: GrpcHealthOptions | undefined
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
 * answers carry every field, defaults included (`"success": false`). Beside it, the standard gRPC
 * services that tools and load balancers call, without credentials: health checking
 * (`grpc.health.v1.Health`, following `Readiness`) and server reflection (v1 and v1alpha).
 */
export const makeTodoNodeHandlerFactory: Effect.Effect<
  (options?: TodoNodeHandlerOptions) => TodoNodeHandler,
  never,
  TaskService | AuthService | Readiness
> = Effect.gen(function*() {
  const { routes, run } = yield* makeTodoConnect
  const readiness = yield* Readiness
  // The readiness check runs with the application's services (its logger).
  const runWithServices = Effect.runPromiseWith(yield* Effect.context<never>())
  const checkReadiness = () => runWithServices(readiness.check)
  const reflection = makeReflection(servedServices)
  return (options: TodoNodeHandlerOptions = {}): TodoNodeHandler => {
    const { draining, fallback = notFound, health: healthOptions, shortcut = true, ...adapterOptions } = options
    const health = new GrpcHealth(checkReadiness, ["", TodoService.typeName], healthOptions)
    draining?.addEventListener("abort", () => health.drain(), { once: true })
    if (draining?.aborted === true) health.drain()
    // connect's own type for these options leaves out the decoder its JSON serialization reads.
    const jsonOptions: Partial<JsonReadOptions & JsonWriteOptions> & { readonly textDecoder: Utf8Decoder } = {
      alwaysEmitImplicit: true,
      textDecoder: strictUtf8,
      ...adapterOptions.jsonOptions
    }
    const stock = connectNodeAdapter({
      readMaxBytes,
      acceptCompression,
      compressMinBytes,
      ...adapterOptions,
      jsonOptions,
      routes: (router) => {
        // TodoService authenticates every call itself (its interceptors are on the service); health
        // and reflection need no credentials.
        routes(router)
        health.routes(router)
        reflection(router, draining)
      },
      // The same objects connect-node hands its fallback, typed by it without `write`.
      fallback: answerUnknownMethods(servedServicePaths, fallback) as NonNullable<
        ConnectNodeAdapterOptions["fallback"]
      >
    })
    // The shortcut reads these options alone; given any other of connect-node's, it stays off.
    const shortcutReads = new Set(["jsonOptions", "readMaxBytes"])
    if (!shortcut || Object.keys(adapterOptions).some((name) => !shortcutReads.has(name))) return stock
    const shortcutMaxBytes = adapterOptions.readMaxBytes ?? readMaxBytes
    // TodoService's handlers as connect-node's adapter makes them (same options), for the gRPC
    // calls the shortcut began to read and hands back: connect-node's handler, given the body as a
    // universal request (connect-node's public conversion, whose body is replaced by the replay).
    const router = createConnectRouter({
      readMaxBytes: shortcutMaxBytes,
      acceptCompression,
      compressMinBytes,
      jsonOptions
    })
    routes(router)
    const handlers = new Map(router.handlers.map((handler) => [handler.requestPath, handler]))
    const handOver = (
      request: IncomingMessage | Http2ServerRequest,
      response: ServerResponse | Http2ServerResponse,
      body: AsyncIterable<Uint8Array>
    ) => {
      const handler = handlers.get(request.url ?? "")!
      handler({ ...universalRequestFromNodeRequest(request, response, undefined, undefined), body })
        .then((answer) => universalResponseToNodeResponse(answer, response))
        .catch((cause: unknown) => {
          // As connect-node's adapter: a call the client ended is not a failure.
          if (ConnectError.from(cause).code === Code.Aborted) return
          return runWithServices(Effect.logError("gRPC call handed to connect-node failed", cause))
        })
    }
    const answerPlainCall = makeConnectUnaryShortcut(run, {
      readMaxBytes: shortcutMaxBytes,
      jsonOptions,
      acceptCompression,
      compressMinBytes,
      handOver
    })
    return (request, response) => {
      if (!answerPlainCall(request, response)) stock(request, response)
    }
  }
})

/** The handler of `makeTodoNodeHandlerFactory`, built at once. */
export const makeTodoNodeHandler = (options: TodoNodeHandlerOptions = {}) =>
  Effect.map(makeTodoNodeHandlerFactory, (make) => make(options))
