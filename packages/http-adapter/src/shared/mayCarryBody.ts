import type { HttpServerRequest } from "effect/http"

/**
 * Whether a request may carry a body worth reading. HTTP/1.x announces one with `content-length`
 * or `transfer-encoding`, and a request with neither has none (RFC 9112, 6.3), so a bodiless
 * `POST` is not read at all. An HTTP/2 request may send one with neither, and a request that is
 * not Node's HTTP/1 message (HTTP/2, a web `Request`) says nothing of its version here, so one whose
 * method takes a body is read whatever its headers say (no body reads as empty).
 */
export const mayCarryBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers["transfer-encoding"] !== undefined ||
  (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0") ||
  (request.method !== "GET" && request.method !== "HEAD" && !isHttp1(request))

/** Node's HTTP/1 request (`IncomingMessage.httpVersionMajor`), the one kind whose headers say whether a body follows. */
const isHttp1 = (request: HttpServerRequest.HttpServerRequest): boolean =>
  (request.source as { readonly httpVersionMajor?: unknown }).httpVersionMajor === 1
