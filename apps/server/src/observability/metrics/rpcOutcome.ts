import { Code } from "@connectrpc/connect"
import type { NodeResponse } from "../../Listener.ts"
import type { RpcCall } from "./Routes.ts"

/** A code's name in the Connect protocol: `Code.InvalidArgument` is `invalid_argument`. */
const codeToString = (code: Code): string =>
  Code[code].replace(/^[A-Z]/u, (first) => first.toLowerCase()).replace(/[A-Z]/gu, (upper) => `_${upper.toLowerCase()}`)

const codeNames = new Set(Object.values(Code).filter((code) => typeof code === "number").map(codeToString))

/**
 * The code of an answer that carries none but its HTTP status, the same table in the Connect
 * protocol ("HTTP to Error Code") and in gRPC's HTTP to gRPC status mapping.
 */
const codeOfHttpStatus = (status: number): string => {
  switch (status) {
    case 400:
      return "internal"
    case 401:
      return "unauthenticated"
    case 403:
      return "permission_denied"
    case 404:
      return "unimplemented"
    case 429:
    case 502:
    case 503:
    case 504:
      return "unavailable"
    default:
      return "unknown"
  }
}

/** The flag of gRPC-Web's trailer frame (the gRPC-Web protocol: the most significant bit of the frame's first byte). */
const trailerFlag = 0x80

/** The `grpc-status` of a gRPC-Web trailer frame's text: header fields, each `name: value`, separated by CRLF. */
const trailerStatus = (bytes: Uint8Array): string | undefined => {
  for (const line of Buffer.from(bytes).toString("utf8").split("\r\n")) {
    const colon = line.indexOf(":")
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === "grpc-status") return line.slice(colon + 1).trim()
  }
  return undefined
}

/** The code of a call whose client went away before any status was sent. */
const gone = "canceled"

type Chunk = string | Uint8Array | undefined

/**
 * The last chunk of the answer and its trailers, kept for reading the call's code once it is
 * answered: whatever served it (connect-node, or the answer to an unknown method), the code is read from what went to the client.
 */
export interface RpcAnswer {
  last: Chunk
  trailers: Record<string, unknown> | undefined
}

const asBytes = (chunk: Chunk): Uint8Array | undefined =>
  chunk === undefined ? undefined : typeof chunk === "string" ? Buffer.from(chunk) : chunk

type Patchable = Record<"write" | "end" | "addTrailers", (this: unknown, ...args: Array<unknown>) => unknown>

const isChunk = (value: unknown): value is string | Uint8Array =>
  typeof value === "string" || value instanceof Uint8Array

/** Wraps the few methods that carry a call's status (body and trailers) so that the last of them is kept. */
export const recordRpcAnswer = (response: NodeResponse): RpcAnswer => {
  const answer: RpcAnswer = { last: undefined, trailers: undefined }
  const target = response as unknown as Patchable
  const { addTrailers, end, write } = target
  target.write = function(...args) {
    if (isChunk(args[0])) answer.last = args[0]
    return write.apply(this, args)
  }
  target.end = function(...args) {
    if (isChunk(args[0])) answer.last = args[0]
    return end.apply(this, args)
  }
  target.addTrailers = function(...args) {
    answer.trailers = { ...answer.trailers, ...(args[0] as Record<string, unknown>) }
    return addTrailers.apply(this, args)
  }
  return answer
}

const grpcCode = (value: unknown): string | undefined => {
  const status = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN
  if (!Number.isInteger(status)) return undefined
  return status === 0 ? "ok" : status in Code ? codeToString(status as Code) : "unknown"
}

/** A gRPC-Web body's last frame, when it is the trailer frame (uncompressed: trailers are small). */
const grpcWebTrailerStatus = (chunk: Chunk): string | undefined => {
  const bytes = asBytes(chunk)
  if (bytes === undefined || bytes.byteLength < 5 || bytes[0] !== trailerFlag) return undefined
  return trailerStatus(bytes.subarray(5))
}

const connectErrorCode = (chunk: Chunk): string | undefined => {
  const bytes = asBytes(chunk)
  if (bytes === undefined) return undefined
  try {
    const code = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { readonly code?: unknown }).code
    return typeof code === "string" && codeNames.has(code) ? code : undefined
  } catch {
    return undefined
  }
}

/**
 * The code the client of `call` was answered, in Connect's names (`ok`, `invalid_argument`, …,
 * gRPC's numeric statuses named alike): a gRPC status from the trailers, the trailers-only
 * headers, or gRPC-Web's trailer frame; a Connect unary call's HTTP status, and the code of its
 * error JSON. A call whose answer never began is `canceled`.
 */
export const rpcCode = (call: RpcCall, response: NodeResponse, answer: RpcAnswer): string => {
  if (!response.headersSent) return gone
  const status = response.statusCode
  if (call.protocol === "connect") {
    if (status === 200) return "ok"
    return connectErrorCode(answer.last) ?? codeOfHttpStatus(status)
  }
  const code = grpcCode(answer.trailers?.["grpc-status"]) ??
    grpcCode(response.getHeader("grpc-status")) ??
    (call.protocol === "grpc_web" ? grpcCode(grpcWebTrailerStatus(answer.last)) : undefined)
  if (code !== undefined) return code
  // Sent without a status: a non-200 answer as gRPC maps it, a 200 cut off before its trailers as the client sees it.
  if (status !== 200) return codeOfHttpStatus(status)
  return response.writableFinished ? "unknown" : gone
}
