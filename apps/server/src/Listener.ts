import { NodeHttpServer } from "@effect/platform-node"
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { HttpServer, HttpServerError } from "effect/http"
import * as NetAddress from "effect/net/NetAddress"
import * as Http from "node:http"
import * as Http2 from "node:http2"
import * as Net from "node:net"
import { AppConfig } from "./AppConfig.ts"
import { detectProtocol } from "./Http2Preface.ts"

export type NodeRequest = Http.IncomingMessage | Http2.Http2ServerRequest
export type NodeResponse = Http.ServerResponse | Http2.Http2ServerResponse
/** A node `request` listener that accepts both HTTP/1.1 and HTTP/2 compatibility objects. */
export type NodeRequestHandler = (request: NodeRequest, response: NodeResponse) => void

/** Requests under this path go to the Connect handler (Connect, gRPC-Web and gRPC). */
export const connectPathPrefix = "/todo.TodoService/"

/** The Connect handler; while none is provided, those paths reach the Effect app (and its 404). */
export const ConnectHandler = Context.Reference<NodeRequestHandler | undefined>("@club/server/ConnectHandler", {
  defaultValue: () => undefined
})

export interface ListenerOptions {
  readonly host: string
  readonly port: number
  /** How long in-flight requests may take to finish on shutdown; then connections are cut. */
  readonly shutdownTimeout?: Duration.Input | undefined
}

const detectTimeoutMs = 30_000

/**
 * One port for HTTP/1.1 and HTTP/2 cleartext: a `net` server looks at the first bytes of
 * each connection and hands it to an `http` or an `http2` server, because
 * `http2.createServer({ allowHTTP1: true })` only falls back to HTTP/1.1 over TLS.
 * Both servers send every request to the same handler, so the Effect app and Connect
 * see HTTP/1.1 and HTTP/2 alike.
 */
export const make = Effect.fnUntraced(function*(options: ListenerOptions) {
  const scope = yield* Effect.scope
  const connect = yield* ConnectHandler
  const runLog = Effect.runForkWith(yield* Effect.context())

  const sockets = new Set<Net.Socket>()
  const sessions = new Set<Http2.ServerHttp2Session>()
  let closing = false
  let inFlight = 0
  let onDrained: (() => void) | undefined
  let app: NodeRequestHandler | undefined
  // Requests that arrive between listening and the app being attached wait here.
  const early: Array<readonly [NodeRequest, NodeResponse]> = []

  const onRequest: NodeRequestHandler = (request, response) => {
    inFlight++
    response.once("close", () => {
      inFlight--
      if (inFlight === 0) onDrained?.()
    })
    if (closing && request.httpVersionMajor === 1) response.setHeader("connection", "close")
    if (connect !== undefined && request.url?.startsWith(connectPathPrefix) === true) {
      try {
        return connect(request, response)
      } catch (error) {
        // A throwing `request` listener would otherwise take the whole process down.
        runLog(Effect.logError("The Connect handler threw", error))
        if (!response.headersSent) response.statusCode = 500
        return void response.end()
      }
    }
    if (app === undefined) return void early.push([request, response])
    app(request, response)
  }

  const http1 = Http.createServer(onRequest)
  // Node arms its header and request timeouts (and idle-connection tracking) on `listening`;
  // this server never listens itself, as connections reach it from the `net` server.
  http1.emit("listening")
  const http2 = Http2.createServer(onRequest)
  http2.on("session", (session) => {
    if (closing) return session.close()
    sessions.add(session)
    session.once("close", () => sessions.delete(session))
  })

  const net = Net.createServer({ noDelay: true }, (socket) => {
    if (closing) return void socket.destroy()
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
    // Errors after the hand-over are handled by the http servers; this one covers detection.
    socket.on("error", () => undefined)
    detectProtocol(socket, (protocol) => {
      if (protocol === "h2c") return void http2.emit("connection", socket)
      http1.emit("connection", socket)
      // The http parser reads what detection put back only once the socket flows again;
      // the http2 session takes the buffered bytes itself and must not be resumed.
      socket.resume()
    }, { timeoutMs: detectTimeoutMs })
  })

  yield* Effect.callback<void, HttpServerError.ServeError>((resume) => {
    const onError = (cause: Error) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
    net.once("error", onError)
    net.listen({ host: options.host, port: options.port }, () => {
      net.off("error", onError)
      resume(Effect.void)
    })
  })
  const bound = net.address() as Net.AddressInfo
  const address = yield* Effect.fromResult(NetAddress.inetAddressFromIpString(bound.address, bound.port)).pipe(
    Effect.mapError((cause) => new HttpServerError.ServeError({ cause }))
  )

  const cutConnections = Effect.sync(() => {
    net.close()
    for (const socket of sockets) socket.destroy()
    http1.close()
    http2.close()
  })

  const drain = Effect.callback<void>((resume) => {
    closing = true
    net.close()
    http1.closeIdleConnections()
    // GOAWAY: no new streams, open ones finish.
    for (const session of sessions) session.close()
    if (inFlight === 0) return resume(Effect.void)
    onDrained = () => resume(Effect.void)
  })

  const shutdown = Effect.suspend(() =>
    Effect.logInfo(`Shutting down: no new connections; waiting for ${inFlight} running request(s)`)
  ).pipe(
    Effect.andThen(drain),
    Effect.timeoutOrElse({
      duration: options.shutdownTimeout ?? Duration.seconds(10),
      orElse: () => Effect.logWarning(`Shutdown: ${inFlight} request(s) still running are cut`)
    }),
    Effect.ensuring(cutConnections)
  )
  yield* Scope.addFinalizer(scope, cutConnections)

  return HttpServer.make({
    address,
    serve: (httpEffect, middleware) =>
      Effect.gen(function*() {
        const serveScope = yield* Effect.scope
        // Closed after `shutdown` (finalizers run in reverse), so running requests are not interrupted.
        const handlerScope = yield* Scope.fork(serveScope, "parallel")
        const handler = yield* NodeHttpServer.makeHandler(httpEffect, { scope: handlerScope, middleware })
        yield* Scope.addFinalizer(serveScope, shutdown)
        app = handler
        for (const [request, response] of early.splice(0)) handler(request, response)
      })
  })
})

export const layer = (options: ListenerOptions): Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError> =>
  Layer.effect(HttpServer.HttpServer, make(options))

/** PORT and HOST from the configuration. */
export const layerConfig: Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError, AppConfig> = Layer.unwrap(
  AppConfig.useSync((config) => layer({ host: config.host, port: config.port }))
)
