import { createServer, request, type ServerResponse } from "node:http"
import { connect as http2Connect, createServer as createHttp2Server } from "node:http2"
import type { AddressInfo } from "node:net"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { TaskService } from "@club/core"
import { create, toBinary } from "@bufbuild/protobuf"
import { gzipSync } from "node:zlib"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CreateTaskRequestSchema } from "@club/contract/todo"
import { makeTodoConnect } from "../src/index.ts"
import { makeConnectUnaryShortcut } from "../src/todo/connectUnaryShortcut.ts"
import { compressionGzip } from "@connectrpc/connect-node"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { TestAuthService } from "./fixtures/TestAuthService.ts"

// Each server has a store of its own; the same calls reach both in the same order, so both hold the same tasks.
const services = Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService)
let fast: TodoServers
let stock: TodoServers
beforeAll(async () => {
  fast = await serveTodo(services)
  stock = await serveTodo(services, { shortcut: false })
  // Enough tasks for a list above the 1 KiB from which answers are compressed.
  for (const servers of [fast, stock]) {
    for (let i = 0; i < 20; i++) {
      await send(servers, {
        rpc: "CreateTask",
        body: JSON.stringify({ title: `Task ${i}` }),
        headers: { ...json, ...athlete }
      })
    }
  }
})
afterAll(async () => {
  await fast.close()
  await stock.close()
})

interface Call {
  readonly rpc: string
  readonly body: string | Uint8Array
  readonly headers?: Record<string, string>
}

const json = { "content-type": "application/json" }
const athlete = { authorization: "Bearer athlete-token" }
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** One raw HTTP/1.1 exchange (fetch would decompress silently, and the encoding is part of the answer). */
const send = (servers: TodoServers, call: Call) =>
  new Promise<{ status: number; headers: Record<string, unknown>; raw: Buffer }>((resolve, reject) => {
    const body = typeof call.body === "string" ? Buffer.from(call.body) : Buffer.from(call.body)
    const outgoing = request(`${servers.http1Url}/todo.TodoService/${call.rpc}`, {
      method: "POST",
      headers: { ...call.headers, "content-length": body.length }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on(
        "end",
        () => resolve({ status: response.statusCode!, headers: response.headers, raw: Buffer.concat(chunks) })
      )
    })
    outgoing.on("error", reject)
    outgoing.end(body)
  })

/** What a client can observe of an answer; generated ids are masked, as the two servers create different tasks. */
const observe = async (servers: TodoServers, call: Call) => {
  const { headers, raw, status } = await send(servers, call)
  const encoding = headers["content-encoding"]
  const body = (encoding === "gzip" ? gunzipSync(raw) : encoding === "br" ? brotliDecompressSync(raw) : raw).toString(
    "latin1"
  ).replace(uuid, "<uuid>")
  const { date: _date, ...rest } = headers
  return { status, headers: encoding === undefined ? rest : { ...rest, "content-length": "<compressed>" }, body }
}

const calls: ReadonlyArray<readonly [string, Call]> = [
  ["CreateTask, JSON", {
    rpc: "CreateTask",
    body: JSON.stringify({ title: "Chalk", description: "for the bars" }),
    headers: { ...json, ...athlete }
  }],
  ["CreateTask, JSON with charset", {
    rpc: "CreateTask",
    body: "{\"title\":\"Rings\"}",
    headers: { "content-type": "application/json; charset=utf-8", ...athlete }
  }],
  ["CreateTask, binary", {
    rpc: "CreateTask",
    body: toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title: "Bars" })),
    headers: { "content-type": "application/proto", ...athlete }
  }],
  ["ListTasks", { rpc: "ListTasks", body: "{}", headers: { ...json, ...athlete } }],
  ["ListTasks, gzip accepted", {
    rpc: "ListTasks",
    body: "{}",
    headers: { ...json, ...athlete, "accept-encoding": "gzip" }
  }],
  ["ListTasks, br then gzip accepted", {
    rpc: "ListTasks",
    body: "{}",
    headers: { ...json, ...athlete, "accept-encoding": "br, gzip" }
  }],
  ["ListTasks, only an unknown compression accepted", {
    rpc: "ListTasks",
    body: "{}",
    headers: { ...json, ...athlete, "accept-encoding": "zstd" }
  }],
  ["DeleteTask of an unknown id", {
    rpc: "DeleteTask",
    body: "{\"id\":\"3f0c2b9e-5d4a-4c1e-9f7a-2b8c6d1e0a11\"}",
    headers: { ...json, ...athlete }
  }],
  ["a blank title", { rpc: "CreateTask", body: "{\"title\":\" \"}", headers: { ...json, ...athlete } }],
  ["no token", { rpc: "ListTasks", body: "{}", headers: json }],
  ["a forged token", { rpc: "ListTasks", body: "{}", headers: { ...json, authorization: "Bearer forged" } }],
  ["malformed JSON, no token", { rpc: "CreateTask", body: "{\"title\":", headers: json }],
  ["an unknown field", {
    rpc: "CreateTask",
    body: "{\"title\":\"x\",\"colour\":\"red\"}",
    headers: { ...json, ...athlete }
  }],
  ["a field of the wrong type", { rpc: "CreateTask", body: "{\"title\":7}", headers: { ...json, ...athlete } }],
  ["binary that does not parse", {
    rpc: "CreateTask",
    body: new Uint8Array([0xff, 0xff, 0xff]),
    headers: { "content-type": "application/proto", ...athlete }
  }],
  ["an unsupported content type", {
    rpc: "ListTasks",
    body: "{}",
    headers: { "content-type": "text/plain", ...athlete }
  }],
  ["a body over 1 MiB", {
    rpc: "CreateTask",
    body: JSON.stringify({ title: "big", description: "d".repeat(1024 * 1024) }),
    headers: { ...json, ...athlete }
  }]
]

describe("the Connect unary shortcut answers as connect-node does", () => {
  it.each(calls)("%s", async (_name, call) => {
    const [fromFast, fromStock] = [await observe(fast, call), await observe(stock, call)]
    expect(fromFast).toEqual(fromStock)
  })

  it("compresses a large answer when the client accepts gzip", async () => {
    const answer = await observe(fast, {
      rpc: "ListTasks",
      body: "{}",
      headers: { ...json, ...athlete, "accept-encoding": "gzip" }
    })
    expect(answer.headers["content-encoding"]).toBe("gzip")
  })
})

interface GrpcCall {
  readonly rpc: string
  /** The request body as sent (enveloped by `envelope`, or not at all for a malformed body). */
  readonly body: Uint8Array
  readonly headers?: Record<string, string>
}

/** One gRPC message: flags, length, bytes. */
const envelope = (message: string | Uint8Array, flags = 0, length?: number): Buffer => {
  const bytes = typeof message === "string" ? Buffer.from(message) : Buffer.from(message)
  const prefix = Buffer.alloc(5)
  prefix[0] = flags
  prefix.writeUInt32BE(length ?? bytes.length, 1)
  return Buffer.concat([prefix, bytes])
}

/** One raw HTTP/2 exchange: the answer's headers, its body and its trailers. */
const sendGrpc = (servers: TodoServers, call: GrpcCall) =>
  new Promise<{ headers: Record<string, unknown>; raw: Buffer; trailers: Record<string, unknown> }>(
    (resolve, reject) => {
      const session = http2Connect(servers.http2Url)
      session.on("error", reject)
      const stream = session.request({
        ":method": "POST",
        ":path": `/todo.TodoService/${call.rpc}`,
        "content-type": "application/grpc",
        te: "trailers",
        ...call.headers
      })
      let headers: Record<string, unknown> = {}
      const chunks: Array<Buffer> = []
      // The answer is whole at its trailers: a server that refuses a large body answers before
      // reading it, and neither connect-node nor the shortcut reads the rest (the stream stays open).
      const done = (trailers: Record<string, unknown>) => {
        session.destroy()
        resolve({ headers, raw: Buffer.concat(chunks), trailers })
      }
      stream.on("response", (received) => (headers = { ...received }))
      stream.on("trailers", (received) => done({ ...received }))
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("error", reject)
      stream.on("close", () => done({}))
      stream.end(call.body)
    }
  )

/**
 * What a gRPC client can observe of an answer: headers, trailers, and each message (its flags, its
 * bytes decompressed as `grpc-encoding` says); generated ids masked.
 */
const observeGrpc = async (servers: TodoServers, call: GrpcCall) => {
  const { headers, raw, trailers } = await sendGrpc(servers, call)
  const messages: Array<{ flags: number; message: string }> = []
  for (let at = 0; at + 5 <= raw.length;) {
    const flags = raw[at]!
    const length = raw.readUInt32BE(at + 1)
    let bytes = raw.subarray(at + 5, at + 5 + length)
    if (flags === 1) bytes = headers["grpc-encoding"] === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes)
    messages.push({ flags, message: bytes.toString("latin1").replace(uuid, "<uuid>") })
    at += 5 + length
  }
  const { date: _date, ...rest } = headers
  return { headers: rest, messages, trailers, bytes: messages.length === 0 ? raw.length : "<messages>" }
}

const grpcJson = { "content-type": "application/grpc+json" }
const createProto = (title: string, description = "") =>
  envelope(toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title, description })))

const grpcCalls: ReadonlyArray<readonly [string, GrpcCall]> = [
  ["CreateTask, binary (application/grpc)", {
    rpc: "CreateTask",
    body: createProto("Chalk", "for the bars"),
    headers: athlete
  }],
  ["CreateTask, +proto", {
    rpc: "CreateTask",
    body: createProto("Rings"),
    headers: { ...athlete, "content-type": "application/grpc+proto" }
  }],
  ["CreateTask, +json", {
    rpc: "CreateTask",
    body: envelope("{\"title\":\"Bars\",\"description\":\"Título ✓\"}"),
    headers: { ...athlete, ...grpcJson }
  }],
  ["CreateTask, +json with charset", {
    rpc: "CreateTask",
    body: envelope("{\"title\":\"Beam\"}"),
    headers: { ...athlete, "content-type": "application/grpc+json; charset=utf-8" }
  }],
  ["ListTasks, binary", { rpc: "ListTasks", body: envelope(""), headers: athlete }],
  ["ListTasks, +json", { rpc: "ListTasks", body: envelope("{}"), headers: { ...athlete, ...grpcJson } }],
  ["ListTasks, gzip accepted", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-accept-encoding": "gzip" }
  }],
  ["ListTasks, br then gzip accepted, +json", {
    rpc: "ListTasks",
    body: envelope("{}"),
    headers: { ...athlete, ...grpcJson, "grpc-accept-encoding": "br, gzip" }
  }],
  ["ListTasks, only an unknown compression accepted", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-accept-encoding": "zstd" }
  }],
  ["ListTasks, an empty grpc-accept-encoding", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-accept-encoding": "" }
  }],
  ["ListTasks, grpc-encoding identity", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-encoding": "identity" }
  }],
  ["DeleteTask of an unknown id", {
    rpc: "DeleteTask",
    body: envelope("{\"id\":\"3f0c2b9e-5d4a-4c1e-9f7a-2b8c6d1e0a11\"}"),
    headers: { ...athlete, ...grpcJson }
  }],
  ["a blank title", { rpc: "CreateTask", body: createProto(" "), headers: athlete }],
  ["an error with gzip accepted", {
    rpc: "CreateTask",
    body: createProto(" "),
    headers: { ...athlete, "grpc-accept-encoding": "gzip" }
  }],
  ["no token", { rpc: "ListTasks", body: envelope(""), headers: {} }],
  ["a forged token", { rpc: "ListTasks", body: envelope(""), headers: { authorization: "Bearer forged" } }],
  ["malformed JSON, no token", { rpc: "CreateTask", body: envelope("{\"title\":"), headers: grpcJson }],
  ["JSON whose error message is not ASCII", {
    rpc: "CreateTask",
    body: envelope("é"),
    headers: { ...athlete, ...grpcJson }
  }],
  ["JSON that is not UTF-8", {
    rpc: "CreateTask",
    body: envelope(new Uint8Array([0x22, 0xff, 0x22])),
    headers: { ...athlete, ...grpcJson }
  }],
  ["an unknown JSON field", {
    rpc: "CreateTask",
    body: envelope("{\"title\":\"x\",\"colour\":\"red\"}"),
    headers: { ...athlete, ...grpcJson }
  }],
  ["an unknown binary field", {
    rpc: "CreateTask",
    body: envelope(new Uint8Array([0x0a, 0x01, 0x78, 0x78, 0x01])),
    headers: athlete
  }],
  ["a field of the wrong type", {
    rpc: "CreateTask",
    body: envelope("{\"title\":7}"),
    headers: { ...athlete, ...grpcJson }
  }],
  ["binary that does not parse", {
    rpc: "CreateTask",
    body: envelope(new Uint8Array([0xff, 0xff, 0xff])),
    headers: athlete
  }],
  ["a message over 1 MiB", {
    rpc: "CreateTask",
    body: createProto("big", "d".repeat(1024 * 1024)),
    headers: athlete
  }],
  ["a length prefix over 1 MiB, the message not sent", {
    rpc: "CreateTask",
    body: envelope("", 0, 1024 * 1024 + 1),
    headers: athlete
  }],
  ["no message", { rpc: "ListTasks", body: new Uint8Array(), headers: athlete }],
  ["half a length prefix", { rpc: "ListTasks", body: new Uint8Array([0, 0]), headers: athlete }],
  ["a cut message", { rpc: "CreateTask", body: envelope("ab", 0, 10), headers: athlete }],
  ["two messages", { rpc: "ListTasks", body: Buffer.concat([envelope(""), envelope("")]), headers: athlete }],
  ["a bad second message", {
    rpc: "CreateTask",
    body: Buffer.concat([createProto("one"), envelope(new Uint8Array([0xff, 0xff]))]),
    headers: athlete
  }],
  ["a compressed message without grpc-encoding", {
    rpc: "CreateTask",
    body: envelope(gzipSync(toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title: "z" }))), 1),
    headers: athlete
  }],
  ["a gzip request (connect-node's)", {
    rpc: "CreateTask",
    body: envelope(gzipSync(toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title: "z" }))), 1),
    headers: { ...athlete, "grpc-encoding": "gzip" }
  }],
  ["an unknown grpc-encoding (connect-node's)", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-encoding": "zstd" }
  }],
  ["a timeout (connect-node's)", {
    rpc: "ListTasks",
    body: envelope(""),
    headers: { ...athlete, "grpc-timeout": "5S" }
  }]
]

describe("the gRPC unary shortcut answers as connect-node does", () => {
  it.each(grpcCalls)("%s", async (_name, call) => {
    const [fromFast, fromStock] = [await observeGrpc(fast, call), await observeGrpc(stock, call)]
    expect(fromFast).toEqual(fromStock)
  })

  it("answers with a compressed message when the client accepts gzip", async () => {
    const answer = await observeGrpc(fast, {
      rpc: "ListTasks",
      body: envelope("{}"),
      headers: { ...athlete, ...grpcJson, "grpc-accept-encoding": "gzip" }
    })
    expect(answer.headers["grpc-encoding"]).toBe("gzip")
    expect(answer.messages[0]?.flags).toBe(1)
  })

  it("percent-encodes a non-ASCII grpc-message", async () => {
    const answer = await observeGrpc(fast, {
      rpc: "CreateTask",
      body: envelope("é"),
      headers: { ...athlete, ...grpcJson }
    })
    expect(answer.trailers["grpc-status"]).toBe("3")
    expect(answer.trailers["grpc-message"]).toContain("%C3%A9")
  })
})

describe("the Connect unary shortcut takes only plain unary calls", () => {
  let url: string
  let h2Url: string
  let close: () => Promise<void>
  beforeAll(async () => {
    const runtime = ManagedRuntime.make(services)
    const { run } = await runtime.runPromise(makeTodoConnect)
    const shortcut = makeConnectUnaryShortcut(run, {
      readMaxBytes: 1024 * 1024,
      jsonOptions: { alwaysEmitImplicit: true, textDecoder: new TextDecoder() },
      acceptCompression: [compressionGzip],
      compressMinBytes: 1024,
      // A body the shortcut began to read and hands back answers 598 here.
      handOver: (_request, response) => void (response as ServerResponse).writeHead(598).end()
    })
    // Whatever the shortcut leaves answers 599 here, where connect-node would take it.
    const leftOver = (
      req: Parameters<typeof shortcut>[0],
      res: { writeHead(status: number): { end(): void } }
    ) => {
      if (!shortcut(req, res as never)) res.writeHead(599).end()
    }
    const server = createServer(leftOver)
    const h2 = createHttp2Server(leftOver)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    await new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/todo.TodoService`
    h2Url = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`
    close = async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await new Promise((resolve) => h2.close(resolve))
      await runtime.dispose()
    }
  })
  afterAll(() => close())

  const statusOf = async (path: string, init: RequestInit) => (await fetch(`${url}${path}`, init)).status

  /** The HTTP status of a call over HTTP/2 (a Connect call by default). */
  const http2StatusOf = (
    headers: Record<string, string> = { ...json, "content-length": "2" },
    body: Uint8Array | string = "{}"
  ) =>
    new Promise<number>((resolve, reject) => {
      const session = http2Connect(h2Url)
      session.on("error", reject)
      const stream = session.request({
        ":method": "POST",
        ":path": "/todo.TodoService/ListTasks",
        ...athlete,
        ...headers
      })
      stream.on("response", (received) => {
        resolve(Number(received[":status"]))
        session.close()
      })
      stream.resume()
      stream.end(body)
    })

  it("takes a Connect JSON or binary POST over HTTP/1.1, a compressed answer accepted or not", async () => {
    const identity = { "accept-encoding": "identity" }
    expect(await statusOf("/ListTasks", { method: "POST", headers: { ...json, ...athlete }, body: "{}" })).toBe(200)
    expect(await statusOf("/ListTasks", { method: "POST", headers: { ...json, ...athlete, ...identity }, body: "{}" }))
      .toBe(200)
    expect(
      await statusOf("/ListTasks", {
        method: "POST",
        headers: { "content-type": "application/proto", ...athlete, ...identity },
        body: new Uint8Array()
      })
    ).toBe(200)
    expect(await statusOf("/ListTasks", { method: "POST", headers: { ...json, ...identity }, body: "{}" })).toBe(401)
  })

  it("leaves a Connect call over HTTP/2 to connect-node", async () => {
    expect(await http2StatusOf()).toBe(599)
  })

  it("takes a plain gRPC call over HTTP/2, binary or JSON", async () => {
    expect(await http2StatusOf({ "content-type": "application/grpc" }, envelope(""))).toBe(200)
    expect(await http2StatusOf({ "content-type": "application/grpc+proto" }, envelope(""))).toBe(200)
    expect(await http2StatusOf({ "content-type": "application/grpc+json" }, envelope("{}"))).toBe(200)
  })

  it("hands a gRPC body that is not one plain message back to connect-node", async () => {
    expect(await http2StatusOf({ "content-type": "application/grpc" }, Buffer.concat([envelope(""), envelope("")])))
      .toBe(598)
    expect(await http2StatusOf({ "content-type": "application/grpc" }, envelope("", 1))).toBe(598)
    expect(await http2StatusOf({ "content-type": "application/grpc" }, new Uint8Array())).toBe(598)
  })

  it.each(
    [
      ["a timeout", { "grpc-timeout": "1S" }],
      ["a compressed request", { "grpc-encoding": "gzip" }],
      ["gRPC-Web over HTTP/2", { "content-type": "application/grpc-web+proto" }],
      ["an unknown gRPC codec", { "content-type": "application/grpc+cbor" }]
    ] as const
  )("leaves a gRPC call with %s to connect-node", async (_name, headers) => {
    expect(await http2StatusOf({ "content-type": "application/grpc", ...headers }, envelope(""))).toBe(599)
  })

  it.each(
    [
      ["gRPC over HTTP/1.1", {
        method: "POST",
        headers: { "content-type": "application/grpc" },
        body: new Uint8Array(5)
      }, "/ListTasks"],
      ["gRPC-Web", {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto" },
        body: new Uint8Array(5)
      }, "/ListTasks"],
      ["a streaming content type", {
        method: "POST",
        headers: { "content-type": "application/connect+json" },
        body: "{}"
      }, "/ListTasks"],
      ["GET", { method: "GET" }, "/ListTasks"],
      [
        "a compressed request",
        { method: "POST", headers: { ...json, "content-encoding": "gzip" }, body: "{}" },
        "/ListTasks"
      ],
      [
        "a timeout header",
        { method: "POST", headers: { ...json, "connect-timeout-ms": "1000" }, body: "{}" },
        "/ListTasks"
      ],
      ["a query string", { method: "POST", headers: json, body: "{}" }, "/ListTasks?x=1"],
      ["an unknown method", { method: "POST", headers: json, body: "{}" }, "/Nope"]
    ] as const
  )("leaves %s to connect-node", async (_name, init, path) => {
    expect(await statusOf(path, init as RequestInit)).toBe(599)
  })
})
