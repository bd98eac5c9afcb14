import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"
import { AppConfig, type MetricsSettings } from "../../AppConfig.ts"
import * as Listener from "../../Listener.ts"
import { routerConfig } from "../../Server.ts"
import { makeRouteClassifier } from "./Routes.ts"
import { makeServerMetrics, type ServerMetrics } from "./ServerMetrics.ts"

export const metricsPath = "/metrics"

/** `GET /metrics` (or HEAD), whatever its query. */
export const isScrape = (request: Listener.NodeRequest): boolean => {
  if (request.method !== "GET" && request.method !== "HEAD") return false
  const url = request.url ?? ""
  return url === metricsPath || url.startsWith(`${metricsPath}?`)
}

/** Answers a scrape with the exposition; never cached (the listener's `Cache-Control: no-store` stays). */
export const answerScrape =
  (metrics: ServerMetrics) => (request: Listener.NodeRequest, response: Listener.NodeResponse) => {
    metrics.render().then(
      (body) => {
        ;(response as Http.ServerResponse).writeHead(200, {
          "content-type": metrics.contentType,
          "content-length": Buffer.byteLength(body)
        })
        if (request.method === "HEAD") response.end()
        else response.end(body)
      },
      () => {
        if (!response.headersSent) (response as Http.ServerResponse).writeHead(500)
        response.end()
      }
    )
  }

/** `/metrics` alone, on a port of its own (METRICS_PORT), closed with the server. */
const serveOnOwnPort = (settings: MetricsSettings & { readonly port: number }, metrics: ServerMetrics) =>
  Effect.acquireRelease(
    Effect.callback<Http.Server, Error>((resume) => {
      const answer = answerScrape(metrics)
      const server = Http.createServer((request, response) => {
        response.setHeader("cache-control", "no-store")
        response.setHeader("x-content-type-options", "nosniff")
        if (isScrape(request)) return answer(request, response)
        response.writeHead(404, { "content-type": "text/plain" }).end("Not found: only /metrics is served here\n")
      })
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen({ host: settings.host, port: settings.port }, () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  ).pipe(
    Effect.tap((server) => {
      const { address, port } = server.address() as Net.AddressInfo
      return Effect.logInfo(
        `Metrics on http://${address.includes(":") ? `[${address}]` : address}:${port}${metricsPath}`
      ).pipe(
        Effect.annotateLogs({ event: "metrics-listening", host: address, port })
      )
    })
  )

/**
 * METRICS=on (the default): every request the listener serves is measured, and `/metrics` answers
 * on the service's port, or only on METRICS_PORT when that is set. METRICS=off: nothing is measured
 * or served (`/metrics` is then an unknown path like any other).
 */
export const MetricsLive: Layer.Layer<never, Error, AppConfig> = Layer.unwrap(
  AppConfig.useSync(({ metrics: settings }) => {
    if (!settings.enabled) return Layer.empty
    return Layer.effect(
      Listener.Metrics,
      Effect.gen(function*() {
        const client = yield* Effect.serviceOption(PgClient.PgClient)
        const metrics = makeServerMetrics(
          makeRouteClassifier(routerConfig),
          Option.getOrUndefined(Option.flatMapNullishOr(client, (client) => client.poolStats))
        )
        const { port } = settings
        if (port !== undefined) {
          yield* serveOnOwnPort({ ...settings, port }, metrics)
          return { scrape: () => false, observe: metrics.observe }
        }
        const answer = answerScrape(metrics)
        return {
          scrape: (request, response) => isScrape(request) && (answer(request, response), true),
          observe: metrics.observe
        } satisfies Listener.RequestMetrics
      })
    )
  })
)
