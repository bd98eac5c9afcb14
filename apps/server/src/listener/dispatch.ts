import type { CorsStep } from "./cors.ts"
import type { NodeRequestHandler } from "./NodeHandler.ts"
import { makeIsRpcRequest } from "./protocolRouting.ts"
import type { RequestMetrics } from "./RequestMetrics.ts"

/**
 * The Connect handler (Connect, gRPC-Web and gRPC) and the path of every service it serves
 * (`/todo.TodoService/`, …), by which the listener routes calls to it (`makeIsRpcRequest`).
 * `draining` is aborted when shutdown begins, before the listener waits for the requests it has:
 * answers that last as long as their client (gRPC health's Watch streams) end then, so that they
 * do not hold it open.
 */
export interface ConnectFront {
  readonly servicePaths: ReadonlyArray<string>
  readonly handler: (draining: AbortSignal) => NodeRequestHandler
}

/** No Connect handler: no request is a call, every request goes to the Effect app. */
export const withoutConnect: ConnectFront = {
  servicePaths: [],
  handler: () => (_request, response) => {
    response.statusCode = 404
    response.end()
  }
}

/**
 * The one chain every admitted request takes: a scrape of `/metrics` is answered first (and not
 * counted: it would show up between every two scrapes); every other request is observed once,
 * before anything answers it; then CORS, in front of routing, so that a preflight is answered here
 * for REST and Connect alike; then the request goes by its protocol either to the Connect handler
 * or to the Effect app, never through one to the other.
 */
export const makeDispatch = (chain: {
  readonly metrics: RequestMetrics
  readonly cors: CorsStep | undefined
  readonly connect: ConnectFront
  readonly app: NodeRequestHandler
  readonly draining: AbortSignal
}): NodeRequestHandler => {
  const { app, cors, metrics } = chain
  const connect = chain.connect.handler(chain.draining)
  const isRpcRequest = makeIsRpcRequest(chain.connect.servicePaths)
  const route: NodeRequestHandler = (request, response) =>
    isRpcRequest(request) ? connect(request, response) : app(request, response)
  const routed: NodeRequestHandler = cors === undefined
    ? route
    : (request, response) => cors(request, response, () => route(request, response))
  return (request, response) => {
    if (metrics.scrape(request, response)) return
    metrics.observe(request, response)
    routed(request, response)
  }
}
