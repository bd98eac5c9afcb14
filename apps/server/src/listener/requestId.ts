import { Context, Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"

/** The header that carries a request's id, on the request and on its answer. */
export const requestIdHeader = "x-request-id"

/**
 * An id a client or a proxy chose, taken as is when it is plainly an id: 1 to 128 characters of
 * letters, digits and `._:-`. Anything else (longer, spaces, quotes, control characters, two
 * headers joined by a comma) could forge or break a log line, and is replaced.
 */
const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/u

export const isSaneRequestId = (value: unknown): value is string =>
  typeof value === "string" && saneRequestId.test(value)

/**
 * Gives the request its id, before anything serves it: the one it carries when sane (a proxy or
 * a client tracing its calls chose it), a new UUID otherwise. The id is written back onto the
 * request's headers, where the Effect app and Connect read it for their log lines and problems,
 * and onto the answer, whoever writes it.
 */
export const assignRequestId = (
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse
): string => {
  const supplied = request.headers[requestIdHeader]
  const id = isSaneRequestId(supplied) ? supplied : randomUUID()
  request.headers[requestIdHeader] = id
  response.setHeader(requestIdHeader, id)
  return id
}

/**
 * Every log line written while the Effect app serves a request carries its id (`requestId`), the
 * request logger's and the handlers' alike: applied around the app's whole middleware chain.
 */
export const withRequestIdInLogs = <A, E, R>(
  app: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
    const id = request?.headers[requestIdHeader]
    return id === undefined ? app : Effect.annotateLogs(app, "requestId", id)
  })
