import { NodeHttpServer } from "@effect/platform-node"
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { HttpServer, HttpServerError } from "effect/http"
import * as NetAddress from "effect/net/NetAddress"
import * as Http from "node:http"
import * as Http2 from "node:http2"
import * as Net from "node:net"
import { AppConfig } from "./AppConfig.ts"
import { detectProtocol } from "./Http2Preface.ts"
import { answerClientError } from "./listener/clientErrors.ts"
import { Connections } from "./listener/Connections.ts"
import { makeCorsStep } from "./listener/cors.ts"
import { Http2Sessions } from "./listener/Http2Sessions.ts"
import { assignRequestId, withRequestIdInLogs } from "./listener/requestId.ts"
import { setSecurityHeaders } from "./listener/securityHeaders.ts"
import { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"

export { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"

export type NodeRequest = Http.IncomingMessage | Http2.Http2ServerRequest
export type NodeResponse = Http.ServerResponse | Http2.Http2ServerResponse
/** A node `request` listener that accepts both HTTP/1.1 and HTTP/2 compatibility objects. */
export type NodeRequestHandler = (request: NodeRequest, response: NodeResponse) => void

/**
 * Builds the Connect handler (Connect, gRPC-Web and gRPC) that receives every request first: it
 * serves its RPCs and hands every other request to `fallback`, the Effect app (connect-node's
 * documented `fallback`). Without one, every request goes to the Effect app. `draining` is aborted
 * when shutdown begins, before the listener waits for the requests it has: answers that last as
 * long as their client (gRPC health's Watch streams) end then, so that they do not hold it open.
 */
export type ConnectFront = (fallback: NodeRequestHandler, draining: AbortSignal) => NodeRequestHandler

export const ConnectHandler = Context.Reference<ConnectFront | undefined>("@club/server/ConnectHandler", {
  defaultValue: () => undefined
})

/**
 * The request metrics (`metrics/`): `scrape` answers a scrape of `/metrics` on this port (true) or
 * leaves the request alone (false); `observe` is given every other request the listener serves,
 * once, before anything answers it, and reads its answer when the exchange closes.
 */
export interface RequestMetrics {
  readonly scrape: (request: NodeRequest, response: NodeResponse) => boolean
  readonly observe: (request: NodeRequest, response: NodeResponse) => void
}

export const Metrics = Context.Reference<RequestMetrics | undefined>("@club/server/Metrics", {
  defaultValue: () => undefined
})

export interface ListenerOptions {
  readonly host: string
  readonly port: number
  /** How long the whole shutdown may take; then connections still open are cut. */
  readonly shutdownTimeout?: Duration.Input | undefined
  /** See `defaultShutdownGracePeriod`. */
  readonly shutdownGracePeriod?: Duration.Input | undefined
  /** Connections, streams and timeouts; each defaults to `defaultServingLimits`. */
  readonly limits?: Partial<ServingLimits> | undefined
  /** Web origins whose pages may call the service (`*`: any); empty or absent: CORS off. See `makeCorsStep`. */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
}

/**
 * On shutdown, how long an idle kept-alive HTTP/1.1 connection may still send a request: it is
 * answered as usual, with `Connection: close`. Then the idle connections are closed. A client
 * that sends on a kept-alive connection just as the server closes it is not answered but sees a
 * clean end of the connection (never a reset), and knows that its request was not processed.
 */
export const defaultShutdownGracePeriod = Duration.seconds(2)

/** Node checks its HTTP/1.1 header and request timeouts this often: a timeout fires at most this late. */
const timeoutCheckIntervalMs = (limits: ServingLimits) =>
  Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 2)))

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
  const metrics = yield* Metrics
  const runLog = Effect.runForkWith(yield* Effect.context())
  const limits: ServingLimits = { ...defaultServingLimits, ...options.limits }

  const connections = new Connections(limits.maxConnections)
  const sessions = new Http2Sessions(limits)
  let closing = false
  let graceOver = false
  let inFlight = 0
  let app: NodeRequestHandler | undefined
  // Requests that arrive between listening and the app being attached wait here.
  const early: Array<readonly [NodeRequest, NodeResponse]> = []

  /** Shutting down: kept-alive HTTP/1.1 connections had their chance; the idle ones are closed now, the others once idle. */
  const endGracePeriod = () => {
    graceOver = true
    for (const connection of connections.values()) {
      if (connection.protocol !== "h2c" && connection.exchanges.size === 0) connections.closeGently(connection.socket)
    }
  }

  /** The Effect app, once attached. */
  const toApp: NodeRequestHandler = (request, response) => {
    if (app === undefined) return void early.push([request, response])
    app(request, response)
  }
  // Aborted as shutdown begins (see ConnectFront).
  const draining = new AbortController()
  const dispatch = connect === undefined ? toApp : connect(toApp, draining.signal)
  // In front of everything, before routing: a preflight is answered here, for REST and Connect alike.
  const cors = makeCorsStep(options.corsOrigins ?? [])

  const onRequest: NodeRequestHandler = (request, response) => {
    const socket = request.httpVersionMajor === 1 ? request.socket as Net.Socket : undefined
    const connection = socket === undefined ? undefined : connections.get(socket)
    if (connection?.refusing === true) {
      // Sent after the server decided to close this connection (it answered `Connection: close`, or
      // closed it idle): not served, so the client sees the connection end without an answer and
      // knows the request was not processed. The body is read and discarded.
      request.resume()
      return
    }
    if (request.httpVersionMajor === 2 && !sessions.admit((response as Http2.Http2ServerResponse).stream)) return
    inFlight++
    const done = () => {
      inFlight--
      if (connection !== undefined && graceOver && connection.exchanges.size === 0) connections.closeGently(socket!)
    }
    if (connection !== undefined) {
      connections.track(connection, request as Http.IncomingMessage, response as Http.ServerResponse, done)
    } else {
      response.once("close", done)
    }
    setSecurityHeaders(response)
    const requestId = assignRequestId(request, response)
    if (closing && connection !== undefined) {
      // The last request this connection gets answered; Node then closes it (gently: `destroySoon` below).
      connection.refusing = true
      response.setHeader("connection", "close")
    }
    try {
      if (metrics !== undefined) {
        // A scrape is not counted: it would show up between every two scrapes.
        if (metrics.scrape(request, response)) return
        metrics.observe(request, response)
      }
      if (cors === undefined) dispatch(request, response)
      else cors(request, response, () => dispatch(request, response))
    } catch (error) {
      // A throwing `request` listener would otherwise take the whole process down.
      runLog(Effect.logError("A request handler threw", error).pipe(Effect.annotateLogs("requestId", requestId)))
      if (!response.headersSent) response.statusCode = 500
      response.end()
    }
  }

  const http1 = Http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: timeoutCheckIntervalMs(limits)
  }, onRequest)
  // Node arms its header and request timeouts (and idle-connection tracking) on `listening`;
  // this server never listens itself, as connections reach it from the `net` server.
  http1.emit("listening")
  // An idle kept-alive connection reaching the idle timeout is closed gently too, not destroyed.
  http1.on("timeout", (socket: Net.Socket) => connections.closeGently(socket))
  http1.on(
    "clientError",
    answerClientError(
      (socket) => (connections.get(socket) === undefined ? socket.destroy() : connections.closeGently(socket)),
      (socket) => Array.from(connections.get(socket)?.exchanges ?? []).some(({ response }) => response.headersSent)
    )
  )
  const http2 = Http2.createServer({ settings: { maxConcurrentStreams: limits.maxStreamsPerSession } }, onRequest)
  // The connection being handed to the HTTP/2 server, whose `session` event names no socket of ours.
  let handingOver: ReturnType<typeof connections.accept>
  http2.on("session", (session) => {
    if (closing) return session.close()
    const handle = sessions.register(session)
    if (handingOver !== undefined) handingOver.session = handle
  })

  const net = Net.createServer({ noDelay: true }, (socket) => {
    // Errors after the hand-over are handled by the http servers; this one covers detection.
    socket.on("error", () => undefined)
    // Accepted while shutting down too (see `drain`): served like any other, with `Connection: close`.
    const connection = connections.accept(socket)
    if (connection === undefined) return
    if (graceOver) connections.closeGently(socket)
    detectProtocol(socket, (protocol) => {
      connection.protocol = protocol
      if (protocol === "h2c") {
        if (connection.lingering) {
          // Closed while silent: what it sends now is read and discarded until it closes too.
          socket.on("data", () => undefined)
          return void socket.resume()
        }
        handingOver = connection
        http2.emit("connection", socket)
        handingOver = undefined
        return
      }
      // Node ends a connection after an answer with `Connection: close` by `destroySoon`: closing both
      // sides at once, which resets a request the client sent meanwhile. Close it gently instead.
      socket.destroySoon = () => connections.closeGently(socket)
      http1.emit("connection", socket)
      // The http parser reads what detection put back only once the socket flows again;
      // the http2 session takes the buffered bytes itself and must not be resumed.
      socket.resume()
    }, { timeoutMs: limits.headersTimeoutMs })
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
    connections.destroyAll()
    http1.close()
    http2.close()
  })

  /**
   * No new connections; every request received is answered; kept-alive HTTP/1.1 connections get
   * `gracePeriod` to send one more request (answered with `Connection: close`), then the idle
   * ones are closed; HTTP/2 sessions get GOAWAY and finish their open streams. Done when every
   * connection is closed.
   */
  const drain = (gracePeriod: Duration.Duration) =>
    Effect.callback<void>((resume) => {
      closing = true
      draining.abort()
      // Connections the kernel has completed but Node has not accepted yet would be reset by closing
      // the listener now: a turn of the event loop accepts them first (and they are served as above).
      setImmediate(() => setImmediate(() => net.close()))
      // GOAWAY: no new streams, open ones finish.
      for (const session of sessions.all()) session.close()
      const grace = setTimeout(endGracePeriod, Duration.toMillis(gracePeriod))
      const done = () => {
        clearTimeout(grace)
        connections.onAllClosed = undefined
        resume(Effect.void)
      }
      if (connections.size === 0) return done()
      connections.onAllClosed = done
      return Effect.sync(() => {
        clearTimeout(grace)
        connections.onAllClosed = undefined
      })
    })

  const gracePeriod = Duration.fromInputUnsafe(options.shutdownGracePeriod ?? defaultShutdownGracePeriod)
  const shutdown = Effect.suspend(() =>
    Effect.logInfo(
      `Shutting down: no new connections; waiting for ${inFlight} running request(s); ${connections.size} open connection(s) closed within ${
        Duration.format(gracePeriod)
      } once idle`
    )
  ).pipe(
    Effect.andThen(drain(gracePeriod)),
    Effect.timeoutOrElse({
      duration: options.shutdownTimeout ?? Duration.seconds(10),
      orElse: () =>
        Effect.logWarning(
          `Shutdown: ${inFlight} request(s) still running and ${connections.size} connection(s) are cut`
        )
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
        const handler = yield* NodeHttpServer.makeHandler(httpEffect, {
          scope: handlerScope,
          // Outside the app's own middleware (the request logger's included), so that every line it logs names the request.
          middleware: (app) => withRequestIdInLogs(middleware === undefined ? app : middleware(app))
        })
        yield* Scope.addFinalizer(serveScope, shutdown)
        app = handler
        for (const [request, response] of early.splice(0)) handler(request, response)
      })
  })
})

export const layer = (options: ListenerOptions): Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError> =>
  Layer.effect(HttpServer.HttpServer, make(options))

/** PORT, HOST, the serving limits and the CORS origins from the configuration. */
export const layerConfig: Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError, AppConfig> = Layer.unwrap(
  AppConfig.useSync((config) =>
    layer({ host: config.host, port: config.port, limits: config.servingLimits, corsOrigins: config.corsOrigins })
  )
)
