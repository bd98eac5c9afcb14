import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { HttpServer, HttpServerError } from "effect/http"
import * as NetAddress from "effect/net/NetAddress"
import type * as Net from "node:net"
import { AppConfig } from "./AppConfig.ts"
import { AppSlot } from "./listener/AppSlot.ts"
import { Connections } from "./listener/Connections.ts"
import { makeCorsStep } from "./listener/cors.ts"
import { type ConnectFront, makeDispatch, withoutConnect } from "./listener/dispatch.ts"
import { defaultShutdownGracePeriod, Drain } from "./listener/Drain.ts"
import { Http2Sessions } from "./listener/Http2Sessions.ts"
import { makeHttp1Server, makeHttp2Server } from "./listener/httpServers.ts"
import { withRequestIdInLogs } from "./listener/requestId.ts"
import { makeRequestListener } from "./listener/requestListener.ts"
import { type RequestMetrics, unmeasured } from "./listener/RequestMetrics.ts"
import { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"
import { makeSniffingServer } from "./listener/sniffingServer.ts"

export { type ConnectFront } from "./listener/dispatch.ts"
export { defaultShutdownGracePeriod } from "./listener/Drain.ts"
export type { NodeRequest, NodeRequestHandler, NodeResponse } from "./listener/NodeHandler.ts"
export { type RequestMetrics } from "./listener/RequestMetrics.ts"
export { defaultServingLimits, type ServingLimits } from "./listener/ServingLimits.ts"

/** The Connect handler beside the Effect app (App.ts's `ConnectLive`); without one, every request goes to the app. */
export const ConnectHandler = Context.Reference<ConnectFront>("@club/server/ConnectHandler", {
  defaultValue: () => withoutConnect
})

/** The request metrics (`observability/metrics/MetricsLive.ts`); without them, nothing is measured. */
export const Metrics = Context.Reference<RequestMetrics>("@club/server/Metrics", { defaultValue: () => unmeasured })

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
 * The HTTP server of the Effect app, on one port for HTTP/1.1 and HTTP/2 cleartext (see
 * `makeSniffingServer`). Both node servers send every request to the same listener, so the
 * Effect app and Connect see HTTP/1.1 and HTTP/2 alike; `makeDispatch` is the one chain a request
 * takes from there.
 */
export const make = Effect.fnUntraced(function*(options: ListenerOptions) {
  const scope = yield* Effect.scope
  const runLog = Effect.runForkWith(yield* Effect.context())
  const limits: ServingLimits = { ...defaultServingLimits, ...options.limits }

  const connections = new Connections(limits.maxConnections)
  const sessions = new Http2Sessions(limits)
  const drain = new Drain(connections, sessions)
  const app = new AppSlot()
  const dispatch = makeDispatch({
    metrics: yield* Metrics,
    cors: makeCorsStep(options.corsOrigins ?? []),
    connect: yield* ConnectHandler,
    app: app.handle,
    draining: drain.signal
  })
  const onRequest = makeRequestListener({ connections, sessions, drain, dispatch, runLog })
  const http1 = makeHttp1Server(limits, connections, onRequest)
  const http2 = makeHttp2Server(limits, onRequest)
  const net = makeSniffingServer({ limits, connections, sessions, drain, http1, http2 })

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
  const shutdown = drain.shutdown({
    gracePeriod: Duration.fromInputUnsafe(options.shutdownGracePeriod ?? defaultShutdownGracePeriod),
    timeout: options.shutdownTimeout ?? Duration.seconds(10),
    stopAccepting: () => net.close(),
    cut: cutConnections
  })
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
        app.attach(handler)
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
