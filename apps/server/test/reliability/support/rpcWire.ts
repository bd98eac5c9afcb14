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
export const callConnect = async (
  client: RawClient,
  method: string,
  body: Buffer | string,
  contentType: string,
  headers: Record<string, string>
): Promise<RpcAnswer> => {
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
    if (typeof error.code !== "string") {
      return { code: "malformed", message: `${reply.status} ${reply.text.slice(0, 200)}`, ms: reply.ms }
    }
    return { code: error.code, message: String(error.message ?? ""), ms: reply.ms }
  } catch {
    return {
      code: "malformed",
      message: `${reply.status} ${reply.contentType} ${reply.text.slice(0, 200)}`,
      ms: reply.ms
    }
  }
}

/** gRPC-Web over HTTP/1.1: the status comes in the headers (trailers-only) or in a trailer frame (flag 0x80) of the body. */
export const callGrpcWeb = async (
  client: RawClient,
  method: string,
  body: Buffer,
  headers: Record<string, string>
): Promise<RpcAnswer> => {
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
  if (reply.status !== 200 || status === undefined) {
    return { code: "malformed", message: `${reply.status} ${reply.text.slice(0, 200)}`, ms: reply.ms }
  }
  return { code: codeNames[status.code] ?? "malformed", message: status.message, ms: reply.ms }
}

/**
 * One HTTP/2 cleartext session, for gRPC calls and Connect unary calls: the status of a gRPC call
 * comes in the trailers (or headers, trailers-only), a Connect error in a JSON body. `failures`
 * collects what went wrong with the session itself (an error, a GOAWAY with an error code).
 */
export const grpcSession = (port: number) => {
  const session = Http2.connect(`http://127.0.0.1:${port}`)
  const failures: Array<string> = []
  session.on("error", (error) => failures.push(`session error: ${error.message}`))
  session.on("goaway", (code) => {
    if (code !== Http2.constants.NGHTTP2_NO_ERROR) failures.push(`GOAWAY with code ${code}`)
  })
  /**
   * Sends one request and waits for the end of its answer. An answer can be complete while the
   * request is still being sent (an oversize message refused at once): like grpc-js, the client
   * then does not reset the stream but lets it finish sending; the server reads and discards the
   * rest, or ends the stream itself (with NO_ERROR).
   */
  const exchange = (path: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<
      {
        status: number
        headers: Http2.IncomingHttpHeaders
        trailers: Http2.IncomingHttpHeaders
        body: Buffer
        rstCode: number | undefined
        ms: number
      }
    >((resolve) => {
      const started = performance.now()
      const stream = session.request({ ":method": "POST", ":path": path, ...headers })
      let status = 0
      let received: Http2.IncomingHttpHeaders = {}
      let trailers: Http2.IncomingHttpHeaders = {}
      const chunks: Array<Buffer> = []
      stream.on("response", (answer) => {
        status = Number(answer[":status"])
        received = answer
      })
      stream.on("trailers", (answer) => {
        trailers = answer
      })
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      const done = () =>
        resolve({
          status,
          headers: received,
          trailers,
          body: Buffer.concat(chunks),
          rstCode: stream.rstCode,
          ms: performance.now() - started
        })
      stream.once("end", done)
      stream.once("close", done)
      stream.on("error", () => undefined)
      stream.end(body)
    })
  const call = async (method: string, body: Buffer, headers: Record<string, string>): Promise<RpcAnswer> => {
    const answer = await exchange(`/todo.TodoService/${method}`, {
      "content-type": "application/grpc",
      te: "trailers",
      ...headers
    }, body)
    const statusIn = (received: Http2.IncomingHttpHeaders) =>
      received["grpc-status"] === undefined
        ? undefined
        : { code: Number(received["grpc-status"]), message: decodeURIComponent(String(received["grpc-message"] ?? "")) }
    const status = statusIn(answer.trailers) ?? statusIn(answer.headers)
    if (status === undefined && answer.status !== 200 && answer.status !== 0) {
      return { code: codeOfHttpStatus[answer.status] ?? "unknown", message: `HTTP ${answer.status}`, ms: answer.ms }
    }
    if (answer.status !== 200 || status === undefined) {
      return { code: "malformed", message: `HTTP ${answer.status}, rst ${answer.rstCode}`, ms: answer.ms }
    }
    return { code: codeNames[status.code] ?? "malformed", message: status.message, ms: answer.ms }
  }
  /** Connect unary over HTTP/2: an error is a non-200 answer with a JSON body `{code, message}`. */
  const connect = async (
    method: string,
    body: Buffer,
    contentType: string,
    headers: Record<string, string>
  ): Promise<RpcAnswer> => {
    const answer = await exchange(`/todo.TodoService/${method}`, { "content-type": contentType, ...headers }, body)
    if (answer.status === 200) return { code: "ok", message: "", ms: answer.ms }
    if (answer.status === 0) return { code: "malformed", message: `no answer, rst ${answer.rstCode}`, ms: answer.ms }
    try {
      const error = JSON.parse(answer.body.toString("utf8")) as { code?: unknown; message?: unknown }
      if (typeof error.code === "string") {
        return { code: error.code, message: String(error.message ?? ""), ms: answer.ms }
      }
    } catch {
      // Not JSON: judged by its status below.
    }
    return {
      code: codeOfHttpStatus[answer.status] ?? "malformed",
      message: `HTTP ${answer.status} ${answer.body.toString("utf8").slice(0, 200)}`,
      ms: answer.ms
    }
  }
  return { call, connect, failures, close: () => session.close() }
}
