import { Effect } from "effect"
import { HttpBody, HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/** The header naming the request: the server sets it on every request (taken from the client when sane) and every answer. */
const requestIdHeader = "x-request-id"

const problemJson = "application/problem+json"

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The problem with the request's id as the extension member `requestId` (RFC 9457, section 3.2),
 * so that a client reporting a failure quotes the id the server's log lines carry. A replayed
 * answer (Idempotency-Key) names the request it answers now.
 */
const withRequestId = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) => {
  const body = response.body
  const id = request.headers[requestIdHeader]
  if (id === undefined || body._tag !== "Uint8Array" || body.contentType !== problemJson) return response
  const problem = parsed(body.text ?? Buffer.from(body.body).toString("utf8"))
  if (typeof problem !== "object" || problem === null || Array.isArray(problem)) return response
  return HttpServerResponse.setBody(response, HttpBody.jsonUnsafe({ ...problem, requestId: id }, problemJson))
}

/**
 * Every `application/problem+json` answer of the REST app carries `requestId`, whoever made the
 * problem (a handler, a middleware, the router's 404 and 405): added to the answer about to be
 * sent, in this one place, so that no path that builds a problem can forget it.
 */
export const RequestIdInProblemsLive = HttpRouter.middleware(
  (httpEffect) =>
    HttpEffect.withPreResponseHandler(
      httpEffect,
      (request, response) => Effect.succeed(withRequestId(request, response))
    ),
  { global: true }
)
