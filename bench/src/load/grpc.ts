// gRPC over HTTP/2 (h2c), for the scenarios that call the Connect service as a gRPC client does
// (`compareScenarios.ts`): autocannon speaks HTTP/1.1 only. The messages are the contract's own
// (`@club/contract/todo`, generated from packages/contract/proto/todo.proto), written and read by
// @bufbuild/protobuf as the server's Connect service does.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf"
import {
  CreateTaskRequestSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  TaskResponseSchema
} from "@club/contract/todo"
import * as Http2 from "node:http2"
import type { BenchRequest } from "../scenarios.ts"

export const listTasksMessage = (): Uint8Array => toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema))

export const createTaskMessage = (title: string, description: string): Uint8Array =>
  toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title, description }))

const taskOf = (
  { description, id, success, title }: { id: string; title: string; description: string; success: boolean }
) => ({
  id,
  title,
  description,
  success
})

/** A TaskResponse as the Connect JSON answer gives it. */
export const decodeTask = (bytes: Uint8Array) => taskOf(fromBinary(TaskResponseSchema, bytes))

/** A ListTasksResponse: its tasks. */
export const decodeTasks = (bytes: Uint8Array) => ({
  tasks: fromBinary(ListTasksResponseSchema, bytes).tasks.map(taskOf)
})

/** One gRPC length-prefixed message, not compressed. */
const frame = (message: Uint8Array) => {
  const prefix = Buffer.alloc(5)
  prefix.writeUInt32BE(message.length, 1)
  return Buffer.concat([prefix, message])
}

export interface GrpcAnswer {
  /** "200" for HTTP 200 with grpc-status 0, else what came back (`grpc-status 16`, `http 415`, `error`). */
  readonly status: string
  /** The answer's message (the first frame's body). */
  readonly message: Uint8Array
}

/** One unary call on an HTTP/2 session. */
export const grpcCall = (session: Http2.ClientHttp2Session, request: BenchRequest, token: string) =>
  new Promise<GrpcAnswer>((resolve) => {
    const stream = session.request({
      ":method": "POST",
      ":path": request.path,
      "content-type": "application/grpc+proto",
      te: "trailers",
      authorization: `Bearer ${token}`
    })
    const chunks: Array<Buffer> = []
    let http = 0
    let grpcStatus: string | undefined
    stream.on("response", (headers) => {
      http = Number(headers[":status"])
      // A trailers-only answer (an error) carries grpc-status in its headers.
      if (headers["grpc-status"] !== undefined) grpcStatus = String(headers["grpc-status"])
    })
    stream.on("trailers", (trailers) => (grpcStatus = String(trailers["grpc-status"])))
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.on("end", () => {
      const body = Buffer.concat(chunks)
      resolve({
        status: http !== 200 ? `http ${http}` : grpcStatus === "0" ? "200" : `grpc-status ${grpcStatus}`,
        message: body.subarray(5, 5 + (body.length >= 5 ? body.readUInt32BE(1) : 0))
      })
    })
    stream.on("error", () => resolve({ status: "error", message: new Uint8Array() }))
    stream.end(frame(request.message ?? new Uint8Array()))
  })

/** One call on a session of its own (the answer checks before measuring). */
export const grpcOnce = async (url: string, request: BenchRequest, token: string): Promise<GrpcAnswer> => {
  const session = Http2.connect(url).on("error", () => undefined)
  try {
    return await grpcCall(session, request, token)
  } finally {
    session.close()
  }
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

/**
 * `connections` HTTP/2 connections, each with one call in flight at a time, as autocannon's
 * HTTP/1.1 connections are loaded, for `seconds`: what was answered, and the latencies' p50 and p99.
 */
export const driveGrpc = async (
  options: { readonly url: string; readonly connections: number; readonly seconds: number; readonly token: string },
  next: () => BenchRequest
) => {
  // A session's failure fails its calls (counted as "error"); it must not end the process.
  const sessions = Array.from(
    { length: options.connections },
    () => Http2.connect(options.url).on("error", () => undefined)
  )
  const latencies: Array<number> = []
  const statusCodes: Record<string, number> = {}
  const started = performance.now()
  const end = started + options.seconds * 1000
  await Promise.all(sessions.map(async (session) => {
    while (performance.now() < end) {
      const sent = performance.now()
      const answer = await grpcCall(session, next(), options.token)
      latencies.push(performance.now() - sent)
      statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1
    }
  }))
  const seconds = (performance.now() - started) / 1000
  for (const session of sessions) session.close()
  latencies.sort((a, b) => a - b)
  return { seconds, statusCodes, p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99) }
}
