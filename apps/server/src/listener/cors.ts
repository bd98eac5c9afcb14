import { ClubApi } from "@club/contract/rest"
import { cors as connectCors } from "@connectrpc/connect"
import makeCors from "cors"
import { HttpApi } from "effect/http-api"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeResponse = ServerResponse | Http2ServerResponse

/**
 * Runs before the request is served, and either answers it (a preflight) or hands it on with
 * `next`, CORS headers set when its origin is allowed.
 */
export type CorsStep = (request: NodeRequest, response: NodeResponse, next: () => void) => void

/** `CORS_ORIGINS=*`: any web origin may call the service. */
export const anyOrigin = "*"

/** Header names once each, whatever their case. */
const distinct = (names: ReadonlyArray<string>) =>
  names.filter((name, index) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === index)

/**
 * What a browser page may send and read beyond the defaults: the REST headers (bearer token, JSON,
 * idempotency key, request id, trace context) and Connect's and gRPC-Web's own, as connect-es lists
 * them; and which answer headers its script may read (retry hints, the request id, where a create
 * put its record, the auth challenge, the methods a path takes, the replay mark, gRPC-Web's status).
 */
const allowedHeaders = distinct([
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "X-Request-Id",
  "traceparent",
  "b3",
  ...connectCors.allowedHeaders
])
const exposedHeaders = distinct([
  "Retry-After",
  "X-Request-Id",
  "Location",
  "WWW-Authenticate",
  "Allow",
  "Idempotent-Replayed",
  ...connectCors.exposedHeaders
])

/**
 * Every method a page may call the service with, read from the REST contract (so that an endpoint
 * with a new method, as PATCH once was, is callable from a page without a line here), HEAD beside
 * GET (the router answers it), and Connect's own (POST, and GET for side-effect-free calls).
 */
export const allowedMethods: ReadonlyArray<string> = (() => {
  const methods = new Set<string>(connectCors.allowedMethods)
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      methods.add(endpoint.method)
    }
  })
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods].sort()
})()

/**
 * How long a browser may reuse a preflight's answer: two hours, the most Chromium honours (Firefox
 * takes up to a day), so that a page's calls are not each preceded by an OPTIONS.
 */
const preflightMaxAgeSeconds = 7_200

/** A preflight: the OPTIONS a browser sends before a request it may not send unasked (Fetch standard, CORS protocol). */
const isPreflight = (request: NodeRequest) =>
  request.method === "OPTIONS" && request.headers.origin !== undefined &&
  request.headers["access-control-request-method"] !== undefined

/**
 * Cross-origin calls from browser pages on `origins` (or any origin, `*`), answered by the well-kept
 * `cors` middleware (expressjs/cors) at the Node level, in front of REST and Connect alike; `undefined`
 * when `origins` is empty: CORS is off, and nothing is added.
 *
 * A request without an `Origin`, or from an origin not listed, gets no CORS header at all and is
 * served as it would be with CORS off (a preflight then meets the 405 of a path without OPTIONS): the
 * browser refuses the page the answer. A preflight from an allowed origin is answered 204 at once,
 * whatever its path. Bearer tokens, not cookies, carry the credentials: no
 * `Access-Control-Allow-Credentials`. Every answer says `Vary: Origin`, since its CORS headers
 * depend on the `Origin` it was asked with.
 */
export const makeCorsStep = (origins: ReadonlyArray<string>): CorsStep | undefined => {
  if (origins.length === 0) return undefined
  const any = origins.includes(anyOrigin)
  const listed = new Set(origins)
  const middleware = makeCors({
    // `*` for any origin; otherwise the request's own origin, reflected, when it is listed. Either
    // way nothing is set (the request goes on untouched) without an Origin or for another origin.
    origin: (origin, allow) => allow(null, origin === undefined ? false : any ? anyOrigin : listed.has(origin)),
    methods: [...allowedMethods],
    allowedHeaders,
    exposedHeaders,
    credentials: false,
    maxAge: preflightMaxAgeSeconds,
    // The preflight's headers are set by `cors`; the 204 is written below, only for a real preflight,
    // so that an OPTIONS without `Access-Control-Request-Method` is served as any other request.
    preflightContinue: true
  })
  return (request, response, next) => {
    response.setHeader("vary", "Origin")
    // `cors` reads and writes only what Node's HTTP/1.1 and HTTP/2 compatibility objects both have.
    middleware(request as IncomingMessage, response as ServerResponse, () => {
      if (!isPreflight(request) || response.getHeader("access-control-allow-origin") === undefined) return next()
      response.statusCode = 204
      response.setHeader("content-length", "0")
      response.end()
    })
  }
}
