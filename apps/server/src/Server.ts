import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Console, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { logDefects, logsEveryRequest } from "./observability/accessLog.ts"
import { AppConfig } from "./AppConfig.ts"
import { describeDatabase } from "./database/databaseDescription.ts"
import * as Listener from "./Listener.ts"
import { readyNotice } from "./shared/readyNotice.ts"

const announce = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const config = yield* AppConfig
  yield* Effect.logInfo(
    `Listening on ${HttpServer.formatAddress(server.address)} (HTTP/1.1 and h2c); database: ${describeDatabase(config)}`
  ).pipe(Effect.annotateLogs({ event: "listening", host: config.host, port: config.port }))
  const address = server.address
  yield* Console.error(readyNotice(config, "port" in address ? address.port : config.port))
})

/**
 * Serves `routes` (HttpApi or HttpRouter layers) on the one port of the configuration, next to
 * the Connect handler when one is provided (`Listener.ConnectHandler`).
 */
/**
 * A path parameter may hold a whole stored value: a theme is up to 200 characters, several times
 * that once percent-encoded (the router's default stops at 100).
 *
 * Paths match exactly as the seed spells them (all lower-case). The router's default matches them
 * case-insensitively by lowercasing the path and then cutting the parameters out at the lowercased
 * positions: a parameter holding a character whose lowercase is longer (`İ`) shifted the others,
 * and `GET /athletes/athlete/%C4%B0/session` matched no route (docs/DECISIONS.md).
 */
export const routerConfig = { maxParamLength: 2_400, caseSensitive: true }

export const layer = <E, R>(routes: Layer.Layer<never, E, R>) =>
  Layer.effectDiscard(announce).pipe(
    Layer.provide(Layer.unwrap(AppConfig.useSync((config) =>
      HttpRouter.serve(routes, {
        disableListenLog: true,
        routerConfig,
        disableLogger: !logsEveryRequest(config.logLevel),
        middleware: logDefects
      })
    ))),
    Layer.provide(Listener.layerConfig),
    Layer.provide(NodeHttpServer.layerHttpServices)
  )
