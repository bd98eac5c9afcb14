import { createServer, request } from "node:http"
import { connect as http2Connect, createServer as createHttp2Server } from "node:http2"
import type { AddressInfo } from "node:net"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { TaskService } from "@club/core"
import { create, toBinary } from "@bufbuild/protobuf"
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
      compressMinBytes: 1024
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

  /** The status of a Connect call over HTTP/2. */
  const http2StatusOf = () =>
    new Promise<number>((resolve, reject) => {
      const session = http2Connect(h2Url)
      session.on("error", reject)
      const stream = session.request({
        ":method": "POST",
        ":path": "/todo.TodoService/ListTasks",
        ...json,
        ...athlete,
        "content-length": "2"
      })
      stream.on("response", (received) => {
        resolve(Number(received[":status"]))
        session.close()
      })
      stream.resume()
      stream.end("{}")
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

  it.each(
    [
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
