import { createServer, request, type ServerResponse } from "node:http"
import { connect as http2Connect, createServer as createHttp2Server } from "node:http2"
import type { AddressInfo } from "node:net"
import { gunzipSync } from "node:zlib"
import { TaskService } from "@club/core"
import { create, toBinary } from "@bufbuild/protobuf"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CreateTaskRequestSchema } from "@club/contract/todo"
import { makeTodoConnect, makeUnaryFastPath } from "../src/index.ts"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { TestAuthService } from "./fixtures/TestAuthService.ts"

// Each server has a store of its own; the same calls reach both in the same order, so both hold the same tasks.
const services = Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService)
let fast: TodoServers
let stock: TodoServers
beforeAll(async () => {
  fast = await serveTodo(services)
  stock = await serveTodo(services, { fastPath: false })
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
  const body = (encoding === "gzip" ? gunzipSync(raw) : raw).toString("latin1").replace(uuid, "<uuid>")
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

describe("the unary fast path answers as connect-node does", () => {
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

describe("the unary fast path takes only plain unary calls", () => {
  let url: string
  let h2Url: string
  let close: () => Promise<void>
  beforeAll(async () => {
    const runtime = ManagedRuntime.make(services)
    const { fastRoutes, run } = await runtime.runPromise(makeTodoConnect)
    const fastPath = makeUnaryFastPath(fastRoutes, run, {
      readMaxBytes: 1024 * 1024,
      jsonOptions: { alwaysEmitImplicit: true },
      // A gRPC-Web call taken and then handed over answers 598 here.
      handOver: (_request, response) => void (response as ServerResponse).writeHead(598).end()
    })
    // Whatever the fast path leaves answers 599 here, where connect-node would take it.
    const server = createServer((req, res) => {
      if (!fastPath(req, res)) res.writeHead(599).end()
    })
    const h2 = createHttp2Server((req, res) => {
      if (!fastPath(req, res)) res.writeHead(599).end()
    })
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

  /** The status of a gRPC call over HTTP/2 with these extra headers. */
  const grpcStatusOf = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const session = http2Connect(h2Url)
      session.on("error", reject)
      const stream = session.request({
        ":method": "POST",
        ":path": "/todo.TodoService/ListTasks",
        "content-type": "application/grpc+proto",
        ...headers
      })
      stream.on("response", (received) => {
        resolve(Number(received[":status"]))
        session.close()
      })
      stream.resume()
      stream.end(new Uint8Array(5))
    })

  it("takes a gRPC call over HTTP/2, but not one with a timeout or a compressed request", async () => {
    expect(await grpcStatusOf(athlete)).toBe(200)
    expect(await grpcStatusOf({ ...athlete, "grpc-timeout": "1S" })).toBe(599)
    expect(await grpcStatusOf({ ...athlete, "grpc-encoding": "gzip" })).toBe(599)
  })

  it("takes a gRPC-Web call, and hands one it cannot answer itself over to connect-node", async () => {
    const grpcWeb = { "content-type": "application/grpc-web+proto", ...athlete }
    expect(await statusOf("/ListTasks", { method: "POST", headers: grpcWeb, body: new Uint8Array(5) })).toBe(200)
    expect(await statusOf("/ListTasks", { method: "POST", headers: grpcWeb, body: new Uint8Array(3) })).toBe(598)
  })

  it("takes a Connect JSON or binary POST", async () => {
    expect(await statusOf("/ListTasks", { method: "POST", headers: { ...json, ...athlete }, body: "{}" })).toBe(200)
    expect(
      await statusOf("/ListTasks", {
        method: "POST",
        headers: { "content-type": "application/proto", ...athlete },
        body: new Uint8Array()
      })
    ).toBe(200)
  })

  it.each(
    [
      ["gRPC-Web text", {
        method: "POST",
        headers: { "content-type": "application/grpc-web-text" },
        body: "AAAAAAA="
      }, "/ListTasks"],
      ["a gRPC-Web timeout", {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", "grpc-timeout": "1S" },
        body: new Uint8Array(5)
      }, "/ListTasks"],
      ["a compressed gRPC-Web request", {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", "grpc-encoding": "gzip" },
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
