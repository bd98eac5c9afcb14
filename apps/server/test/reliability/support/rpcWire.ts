import * as Http2 from "node:http2"
import type { RawClient } from "./rawHttp.ts"

const oneMiB = 1024 * 1024

/** Connect's codes by their gRPC number, as the three protocols report them. */
export const codeNames: Record<number, string> = {
  0: "ok",
  1: "canceled",
  2: "unknown",
  3: "invalid_argument",
  4: "deadline_exceeded",
  5: "not_found",
  6: "already_exists",
  7: "permission_denied",
  8: "resource_exhausted",
  9: "failed_precondition",
  10: "aborted",
  11: "out_of_range",
  12: "unimplemented",
  13: "internal",
  14: "unavailable",
  15: "data_loss",
  16: "unauthenticated"
}

export type Protocol = "connect-proto" | "connect-json" | "grpc-web" | "grpc"

/** What one RPC answered: `ok`, or the error code it reported; `malformed` when the answer did not follow the protocol. */
export interface RpcAnswer {
  readonly code: string
  readonly message: string
  readonly ms: number
}

/** A message in the length-prefixed envelope of gRPC and gRPC-Web: flags, 4-byte length, bytes. */
export const envelope = (message: Uint8Array, flags = 0, declaredLength = message.length) => {
  const frame = Buffer.alloc(5 + message.length)
  frame.writeUInt8(flags, 0)
  frame.writeUInt32BE(declaredLength, 1)
  Buffer.from(message).copy(frame, 5)
  return frame
}

const trailerCode = (text: string): { code: number; message: string } | undefined => {
  const status = /grpc-status:\s*(\d+)/iu.exec(text)
  if (status === null) return undefined
  const message = /grpc-message:\s*([^\r\n]*)/iu.exec(text)?.[1] ?? ""
  return { code: Number(status[1]), message: decodeURIComponent(message) }
}

/**
 * The code a Connect or gRPC-Web client derives from an HTTP status when the answer carries none
 * (an unknown method's plain 404, for instance), as both protocols specify.
 */
const codeOfHttpStatus: Record<number, string> = {
  400: "internal",
  401: "unauthenticated",
  403: "permission_denied",
  404: "unimplemented",
  429: "unavailable",
  502: "unavailable",
  503: "unavailable",
  504: "unavailable"
}

/** Connect unary over HTTP/1.1: an error is a non-200 answer with a JSON body `{code, message}`. */
export const callConnect = async (client: RawClient, method: string, body: Buffer | string, contentType: string, headers: Record<string, string>): Promise<RpcAnswer> => {
  const reply = await client.send({
    method: "POST",
    path: `/todo.TodoService/${method}`,
    headers: { ...headers, "content-type": contentType },
    body,
    ownConnection: body.length > oneMiB
  })
  if (reply.status === 200) return { code: "ok", message: "", ms: reply.ms }
  if (reply.contentType !== "application/json" && reply.text === "") {
    return { code: codeOfHttpStatus[reply.status] ?? "unknown", message: `HTTP ${reply.status}`, ms: reply.ms }
  }
  try {
    const error = JSON.parse(reply.text) as { code?: unknown; message?: unknown }
    if (typeof error.code !== "string") return { code: "malformed", message: `${reply.status} ${reply.text.slice(0, 200)}`, ms: reply.ms }
    return { code: error.code, message: String(error.message ?? ""), ms: reply.ms }
  } catch {
    return { code: "malformed", message: `${reply.status} ${reply.contentType} ${reply.text.slice(0, 200)}`, ms: reply.ms }
  }
}

/** gRPC-Web over HTTP/1.1: the status comes in the headers (trailers-only) or in a trailer frame (flag 0x80) of the body. */
export const callGrpcWeb = async (client: RawClient, method: string, body: Buffer, headers: Record<string, string>): Promise<RpcAnswer> => {
  const reply = await client.send({
    method: "POST",
    path: `/todo.TodoService/${method}`,
    headers: { ...headers, "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
    body,
    ownConnection: body.length > oneMiB
  })
  const inHeaders = reply.headers["grpc-status"]
  const status = inHeaders !== undefined
    ? { code: Number(inHeaders), message: decodeURIComponent(String(reply.headers["grpc-message"] ?? "")) }
    : trailerCode(reply.text)
  if (status === undefined && reply.status !== 200 && reply.text === "") {
    return { code: codeOfHttpStatus[reply.status] ?? "unknown", message: `HTTP ${reply.status}`, ms: reply.ms }
  }
  if (reply.status !== 200 || status === undefined) return { code: "malformed", message: `${reply.status} ${reply.text.slice(0, 200)}`, ms: reply.ms }
  return { code: codeNames[status.code] ?? "malformed", message: status.message, ms: reply.ms }
}

/** gRPC over HTTP/2 cleartext, on one session: the status comes in the trailers (or headers, trailers-only). */
export const grpcSession = (port: number) => {
  const session = Http2.connect(`http://127.0.0.1:${port}`)
  session.on("error", () => undefined)
  const call = (method: string, body: Buffer, headers: Record<string, string>) =>
    new Promise<RpcAnswer>((resolve) => {
      const started = performance.now()
      const stream = session.request({
        ":method": "POST",
        ":path": `/todo.TodoService/${method}`,
        "content-type": "application/grpc",
        te: "trailers",
        ...headers
      })
      let status: { code: number; message: string } | undefined
      let httpStatus = 0
      const take = (received: Http2.IncomingHttpHeaders) => {
        if (received["grpc-status"] !== undefined) {
          status = { code: Number(received["grpc-status"]), message: decodeURIComponent(String(received["grpc-message"] ?? "")) }
        }
      }
      stream.on("response", (received) => {
        httpStatus = Number(received[":status"])
        take(received)
      })
      stream.on("trailers", take)
      stream.on("data", () => undefined)
      // The answer is complete at its end, even while the request is still being sent (an early
      // refusal of an oversize message): like gRPC clients, stop sending then.
      const done = () => {
        const ms = performance.now() - started
        // Only then: resetting every finished stream looks like a rapid-reset attack to the server.
        if (!stream.writableFinished && !stream.closed) stream.close(Http2.constants.NGHTTP2_CANCEL)
        if (status === undefined && httpStatus !== 200 && httpStatus !== 0) resolve({ code: codeOfHttpStatus[httpStatus] ?? "unknown", message: `HTTP ${httpStatus}`, ms })
        else if (httpStatus !== 200 || status === undefined) resolve({ code: "malformed", message: `HTTP ${httpStatus}, rst ${stream.rstCode}`, ms })
        else resolve({ code: codeNames[status.code] ?? "malformed", message: status.message, ms })
      }
      stream.once("end", done)
      stream.once("close", done)
      stream.on("error", () => undefined)
      stream.end(body)
    })
  return { call, close: () => session.close() }
}
