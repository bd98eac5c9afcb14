import type { HttpServerRequest } from "effect/http"

/**
 * Whether a request may carry a body worth reading. HTTP/1.1 announces one with `content-length`
 * or `transfer-encoding`; an HTTP/2 request may send one with neither, so a request whose method
 * takes a body is read whatever its headers say (no body reads as empty).
 */
export const mayCarryBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  (request.method !== "GET" && request.method !== "HEAD") ||
  request.headers["transfer-encoding"] !== undefined ||
  (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0")
