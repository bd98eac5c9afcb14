import type { CorsStep } from "./cors.ts"
import type { NodeRequestHandler } from "./NodeHandler.ts"
import type { RequestMetrics } from "./RequestMetrics.ts"

/**
 * The Connect handler (Connect, gRPC-Web and gRPC), given the handler of every request it does not
 * serve: connect-node's documented `fallback` option. `draining` is aborted when shutdown begins,
 * before the listener waits for the requests it has: answers that last as long as their client
 * (gRPC health's Watch streams) end then, so that they do not hold it open.
 */
export type ConnectFront = (fallback: NodeRequestHandler, draining: AbortSignal) => NodeRequestHandler

/** No Connect handler: every request goes to the fallback, the Effect app. */
export const withoutConnect: ConnectFront = (fallback) => fallback

/**
 * The one chain every admitted request takes: a scrape of `/metrics` is answered first (and not
 * counted: it would show up between every two scrapes); every other request is observed once,
 * before anything answers it; then CORS, in front of routing, so that a preflight is answered here
 * for REST and Connect alike; then the Connect handler, whose fallback is the Effect app.
 */
export const makeDispatch = (chain: {
  readonly metrics: RequestMetrics
  readonly cors: CorsStep | undefined
  readonly connect: ConnectFront
  readonly app: NodeRequestHandler
  readonly draining: AbortSignal
}): NodeRequestHandler => {
  const { cors, metrics } = chain
  const connect = chain.connect(chain.app, chain.draining)
  const routed: NodeRequestHandler = cors === undefined
    ? connect
    : (request, response) => cors(request, response, () => connect(request, response))
  return (request, response) => {
    if (metrics.scrape(request, response)) return
    metrics.observe(request, response)
    routed(request, response)
  }
}
