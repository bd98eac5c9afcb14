import { servedServicePaths, servedServices } from "@club/connect-adapter"
import { ClubApi } from "@club/contract/rest"
import { FindMyWay } from "effect/http"
import { HttpApi } from "effect/http-api"
import { grpcContentType } from "../../listener/protocolRouting.ts"

/** The label of every request whose path no route serves, whatever the path. */
export const unmatchedRoute = "unmatched"

/** The label of a method outside the few HTTP methods (a client may send any token). */
export const otherMethod = "OTHER"

/** The methods a label names as themselves; any other is `OTHER`. */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])

/** An RPC (TodoService, gRPC health, reflection), as the listener sees it from the request line and content type. */
export interface RpcCall {
  /** `todo.TodoService`, `grpc.health.v1.Health`, …, or `unknown` for a call of a service this server does not serve. */
  readonly service: string
  /** `CreateTask`, `Check`, …, or `unknown` for a method the service does not have. */
  readonly method: string
  readonly protocol: "connect" | "grpc" | "grpc_web"
}

/** What a request is, for the metrics: its method and route labels, and the RPC it calls if any. */
export interface RequestRoute {
  readonly method: string
  /** The route template (`/session/{id}`), the RPC's path, or `unmatched`. */
  readonly route: string
  readonly rpc: RpcCall | undefined
}

/** `/session/:id` as OpenAPI writes it: `/session/{id}`. */
const templateLabel = (path: string) => path.replace(/:([A-Za-z0-9_]+)/gu, "{$1}")

const unknownRpc = "unknown"

/**
 * Classifies requests into a bounded set of labels: the route templates of the contract (matched
 * with the router's own matcher and settings, so that a request gets the route that serves it),
 * the two documents, the methods of the services served over Connect and gRPC (TodoService,
 * health, reflection), and `unmatched` for everything else. A label never
 * holds anything a client chose: ids, unknown paths and odd methods all fold into fixed labels.
 */
export const makeRouteClassifier = (options: { readonly maxParamLength: number; readonly caseSensitive: boolean }) => {
  const router = FindMyWay.make<string>({ ...options, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false })
  const methodsByTemplate = new Map<string, Set<string>>([["/openapi.json", new Set(["GET"])], [
    "/docs",
    new Set(["GET"])
  ]])
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const methods = methodsByTemplate.get(endpoint.path) ?? new Set<string>()
      methods.add(endpoint.method)
      methodsByTemplate.set(endpoint.path, methods)
    }
  })
  const routerMethods = new Set<string>()
  for (const [template, methods] of methodsByTemplate) {
    for (const method of methods) {
      routerMethods.add(method)
      router.on(method, template as FindMyWay.PathInput, templateLabel(template))
    }
  }
  const rpcMethods = new Map<string, { readonly service: string; readonly method: string }>(
    servedServices.flatMap((service) =>
      service.methods.map((method) =>
        [`/${service.typeName}/${method.name}`, { service: service.typeName, method: method.name }] as const
      )
    )
  )
  const servedServiceOf = (path: string) =>
    servedServices.find((_, index) => path.startsWith(servedServicePaths[index]!))?.typeName

  const restRoute = (method: string, url: string): string => {
    const found = router.find(method, url) ?? (method === "HEAD" ? router.find("GET", url) : undefined)
    if (found !== undefined) return found.handler
    // Served under other methods (the 405 of that route): still that route.
    for (const other of routerMethods) {
      const served = router.find(other, url)
      if (served !== undefined) return served.handler
    }
    return unmatchedRoute
  }

  return (method: string | undefined, url: string | undefined, contentType: string | undefined): RequestRoute => {
    const methodLabel = method !== undefined && knownMethods.has(method) ? method : otherMethod
    const path = url === undefined ? "" : url.split("?", 1)[0]!
    const rpcMethod = rpcMethods.get(path)
    const grpc = contentType !== undefined && grpcContentType.test(contentType)
    const servedService = rpcMethod === undefined ? servedServiceOf(path) : rpcMethod.service
    if (rpcMethod !== undefined || grpc || servedService !== undefined) {
      const route = rpcMethod === undefined ? unmatchedRoute : path
      // What connect-node answers as a call (a POST, or any gRPC request); a GET of an RPC's path is not one.
      if (method !== "POST" && !grpc) return { method: methodLabel, route, rpc: undefined }
      const protocol = !grpc ? "connect" : /^application\/grpc-web/iu.test(contentType!) ? "grpc_web" : "grpc"
      return {
        method: methodLabel,
        route,
        rpc: rpcMethod === undefined
          ? { service: servedService ?? unknownRpc, method: unknownRpc, protocol }
          : { service: rpcMethod.service, method: rpcMethod.method, protocol }
      }
    }
    return {
      method: methodLabel,
      route: url === undefined ? unmatchedRoute : restRoute(method ?? "GET", url),
      rpc: undefined
    }
  }
}

export type RouteClassifier = ReturnType<typeof makeRouteClassifier>
