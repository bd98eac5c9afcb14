import type { FastReadsHandler } from "@club/http-adapter"
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

/**
 * Offered every HTTP/1.1 request before the Effect app; answers the plain reads it knows
 * (`makeFastReads` of the http-adapter) and hands the rest, or back, to the app.
 */
export const FastReads = Context.Reference<FastReadsHandler | undefined>("@club/server/FastReads", {
  defaultValue: () => undefined
})

export interface ListenerOptions {
  readonly host: string
  readonly port: number
  /** How long the whole shutdown may take; then connections still open are cut. */
  readonly shutdownTimeout?: Duration.Input | undefined
  /** See `defaultShutdownGracePeriod`. */
  readonly shutdownGracePeriod?: Duration.Input | undefined
}

/**
 * On shutdown, how long an idle kept-alive HTTP/1.1 connection may still send a request: it is
 * answered as usual, with `Connection: close`. Then the idle connections are closed. A client
 * that sends on a kept-alive connection just as the server closes it is not answered but sees a
 * clean end of the connection (never a reset), and knows that its request was not processed.
 */
export const defaultShutdownGracePeriod = Duration.seconds(2)

const detectTimeoutMs = 30_000

/**
 * After the server has closed its side of a connection, how long it still reads (and discards)
 * what the client sends, waiting for the client to close its side. Closing both sides at once
 * while a request is arriving makes the kernel answer with a reset (RFC 9112, section 9.6).
 */
const lingerMs = 2_000

/**
 * An HTTP/2 answer complete before its request (an oversize message refused at once): how much
 * more of the request is read and discarded, and for how long, before the stream is reset with
 * NO_ERROR (RFC 9113, section 8.1). Reading the rest lets the client finish sending: Node's
 * HTTP/2 client does not release the session memory it counted for data it never got to send,
 * and refuses every new stream of a session after about 10 MiB of it.
 */
const drainMaxBytes = 8 * 1024 * 1024
const drainTimeoutMs = 10_000

/** What the listener knows of one accepted connection. */
interface Connection {
  protocol: "detecting" | "http/1.1" | "h2c"
  /** HTTP/1.1 requests handed to a handler whose response has not closed yet. */
  pending: number
  /** HTTP/1.1: the server closes this connection; requests that still arrive on it are not served. */
  refusing: boolean
  /** The server has closed its side and waits for the client's. */
  lingering: boolean
}

/** Once an HTTP/2 response is complete, the rest of an unread request is read and discarded (see `drainMaxBytes`). */
const drainUnreadRequest = (stream: Http2.ServerHttp2Stream) =>
  stream.once("finish", () => {
    if (stream.closed || stream.destroyed || stream.readableEnded) return
    let drained = 0
    const stop = () => {
      if (!stream.closed && !stream.destroyed) stream.close(Http2.constants.NGHTTP2_NO_ERROR)
    }
    const timer = setTimeout(stop, drainTimeoutMs)
    timer.unref()
    stream.once("close", () => clearTimeout(timer))
    // The request object has given up on the body (it may be destroyed): read the stream itself.
    stream.removeAllListeners("data")
    stream.on("data", (chunk: Buffer) => {
      drained += chunk.length
      if (drained > drainMaxBytes) stop()
    })
    stream.resume()
  })

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
  const fastReads = yield* FastReads
  const runLog = Effect.runForkWith(yield* Effect.context())

  const connections = new Map<Net.Socket, Connection>()
  const sessions = new Set<Http2.ServerHttp2Session>()
  let closing = false
  let graceOver = false
  let inFlight = 0
  /** Called, while shutting down, when the last connection has closed. */
  let onAllClosed: (() => void) | undefined
  let app: NodeRequestHandler | undefined
  // Requests that arrive between listening and the app being attached wait here.
  const early: Array<readonly [NodeRequest, NodeResponse]> = []

  /**
   * Closes the server's side of a connection, then reads on until the client closes its side
   * (Node then closes the socket), or `lingerMs` pass: a request arriving meanwhile is not
   * served (`refusing`) and meets the end of the connection, not a reset.
   */
  const closeGently = (socket: Net.Socket) => {
    const connection = connections.get(socket)
    if (connection === undefined || connection.lingering || socket.destroyed) return
    connection.refusing = true
    connection.lingering = true
    socket.end()
    const timer = setTimeout(() => socket.destroy(), lingerMs)
    timer.unref()
    socket.once("close", () => clearTimeout(timer))
  }

  /** Shutting down: kept-alive HTTP/1.1 connections had their chance; the idle ones are closed now, the others once idle. */
  const endGracePeriod = () => {
    graceOver = true
    for (const [socket, connection] of connections) {
      if (connection.protocol !== "h2c" && connection.pending === 0) closeGently(socket)
    }
  }

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
    inFlight++
    if (connection !== undefined) connection.pending++
    response.once("close", () => {
      inFlight--
      if (connection !== undefined) {
        connection.pending--
        if (graceOver && connection.pending === 0) closeGently(socket!)
      }
    })
    if (closing && connection !== undefined) {
      // The last request this connection gets answered; Node then closes it (gently: `destroySoon` below).
      connection.refusing = true
      response.setHeader("connection", "close")
    }
    if (request.httpVersionMajor === 2) drainUnreadRequest((response as Http2.Http2ServerResponse).stream)
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
    const served = app
    if (request.httpVersionMajor === 1 && fastReads?.(request as Http.IncomingMessage, response as Http.ServerResponse, () => served(request, response)) === true) return
    served(request, response)
  }

  const http1 = Http.createServer(onRequest)
  // Node arms its header and request timeouts (and idle-connection tracking) on `listening`;
  // this server never listens itself, as connections reach it from the `net` server.
  http1.emit("listening")
  // An idle kept-alive connection reaching Node's keep-alive timeout is closed gently too, not destroyed.
  http1.on("timeout", closeGently)
  const http2 = Http2.createServer(onRequest)
  http2.on("session", (session) => {
    if (closing) return session.close()
    sessions.add(session)
    session.once("close", () => sessions.delete(session))
  })

  const net = Net.createServer({ noDelay: true }, (socket) => {
    // Accepted while shutting down too (see `drain`): served like any other, with `Connection: close`.
    const connection: Connection = { protocol: "detecting", pending: 0, refusing: false, lingering: false }
    connections.set(socket, connection)
    socket.once("close", () => {
      connections.delete(socket)
      if (connections.size === 0) onAllClosed?.()
    })
    // Errors after the hand-over are handled by the http servers; this one covers detection.
    socket.on("error", () => undefined)
    if (graceOver) closeGently(socket)
    detectProtocol(socket, (protocol) => {
      connection.protocol = protocol
      if (protocol === "h2c") {
        if (!connection.lingering) return void http2.emit("connection", socket)
        // Closed while silent: what it sends now is read and discarded until it closes too.
        socket.on("data", () => undefined)
        return void socket.resume()
      }
      // Node ends a connection after an answer with `Connection: close` by `destroySoon`: closing both
      // sides at once, which resets a request the client sent meanwhile. Close it gently instead.
      socket.destroySoon = () => closeGently(socket)
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
    for (const socket of connections.keys()) socket.destroy()
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
      // Connections the kernel has completed but Node has not accepted yet would be reset by closing
      // the listener now: a turn of the event loop accepts them first (and they are served as above).
      setImmediate(() => setImmediate(() => net.close()))
      // GOAWAY: no new streams, open ones finish.
      for (const session of sessions) session.close()
      const grace = setTimeout(endGracePeriod, Duration.toMillis(gracePeriod))
      const done = () => {
        clearTimeout(grace)
        onAllClosed = undefined
        resume(Effect.void)
      }
      if (connections.size === 0) return done()
      onAllClosed = done
      return Effect.sync(() => {
        clearTimeout(grace)
        onAllClosed = undefined
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
        Effect.logWarning(`Shutdown: ${inFlight} request(s) still running and ${connections.size} connection(s) are cut`)
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
