// gRPC over HTTP/2 (h2c), for the scenarios that call the Connect service as a gRPC client does
// (`compareScenarios.ts`): autocannon speaks HTTP/1.1 only. The messages are the few fields of
// packages/contract/proto/todo.proto, written and read by hand (proto3 wire format: a tag, a
// length, the bytes), so that the load generator needs no generated code.
import * as Http2 from "node:http2"
import type { BenchRequest } from "../scenarios.ts"

const tag = (field: number, wireType: number) => (field << 3) | wireType

const varint = (value: number): Array<number> => {
  const bytes: Array<number> = []
  let rest = value
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80)
    rest >>>= 7
  }
  bytes.push(rest)
  return bytes
}

/** A message of string fields only, `[field number, text]` in order (CreateTaskRequest). */
export const stringsMessage = (fields: ReadonlyArray<readonly [number, string]>): Uint8Array =>
  Buffer.concat(fields.map(([field, text]) => {
    const bytes = Buffer.from(text, "utf8")
    return Buffer.concat([Buffer.from([tag(field, 2), ...varint(bytes.length)]), bytes])
  }))

/** One message's fields: each field number's values, a length-delimited one as its bytes. */
const fieldsOf = (bytes: Uint8Array): Map<number, Array<Uint8Array | number>> => {
  const fields = new Map<number, Array<Uint8Array | number>>()
  let at = 0
  const readVarint = () => {
    let value = 0
    let shift = 0
    for (;;) {
      const byte = bytes[at++]!
      value += (byte & 0x7f) * 2 ** shift
      if (byte < 0x80) return value
      shift += 7
    }
  }
  while (at < bytes.length) {
    const key = readVarint()
    const field = Math.floor(key / 8)
    const values = fields.get(field) ?? []
    fields.set(field, values)
    if ((key & 7) === 0) values.push(readVarint())
    else if ((key & 7) === 2) {
      const length = readVarint()
      values.push(bytes.subarray(at, at + length))
      at += length
    } else throw new Error(`wire type ${key & 7} is not one of todo.proto's`)
  }
  return fields
}

const text = (value: Uint8Array | number | undefined) =>
  value === undefined ? "" : Buffer.from(value as Uint8Array).toString("utf8")

/** A TaskResponse as the Connect JSON answer writes it (proto3 leaves defaults out: "" and false). */
export const decodeTask = (bytes: Uint8Array) => {
  const fields = fieldsOf(bytes)
  return {
    id: text(fields.get(1)?.[0]),
    title: text(fields.get(2)?.[0]),
    description: text(fields.get(3)?.[0]),
    success: fields.get(4)?.[0] === 1
  }
}

/** A ListTasksResponse: its tasks. */
export const decodeTasks = (bytes: Uint8Array) => ({
  tasks: (fieldsOf(bytes).get(1) ?? []).map((task) => decodeTask(task as Uint8Array))
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
