import type { IncomingMessage } from "node:http"

/** The token of exactly `Authorization: Bearer <token>`, a token of JWT characters only; else undefined. */
export const plainBearerToken = (authorization: string | undefined): string | undefined =>
  authorization !== undefined && /^Bearer [A-Za-z0-9._~+/=-]+$/.test(authorization) ? authorization.slice(7) : undefined

/** A GET over HTTP/1.x without a body, a query or anything but digits after the path's last slash. */
export const plainReadPath = (
  request: IncomingMessage
): { readonly prefix: string; readonly id: string } | undefined => {
  if (request.method !== "GET" || request.httpVersionMajor !== 1) return undefined
  if (request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) {
    return undefined
  }
  const url = request.url ?? ""
  const slash = url.lastIndexOf("/")
  const id = url.slice(slash + 1)
  return /^[1-9][0-9]{0,15}$/.test(id) ? { prefix: url.slice(0, slash + 1), id } : undefined
}
