import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { TodoService } from "@club/contract/todo"
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adminPassword, loginAsAdmin } from "../connect/support/login.ts"
import { grpcEmptyCall } from "../support/requests.ts"
import { deltas, type Exposition, parseExposition, samplesOf, seriesKey } from "../support/prometheus.ts"
import { freePort, type ServerProcess, startServer } from "@club/test-support"

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

const requests = "http_server_request_duration_seconds_count"
const calls = "rpc_server_duration_seconds_count"

const scrape = async (
  port: number,
  path = "/metrics"
): Promise<{ status: number; contentType: string | null; text: string }> => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`)
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
}

const exposition = async (port: number): Promise<Exposition> => {
  const answer = await scrape(port)
  expect(answer.status).toBe(200)
  return parseExposition(answer.text)
}

/**
 * Scrapes until `name`'s series moved from `before` by `expected` (or 3 s passed): an exchange is
 * recorded when it closes, which for an HTTP/2 stream can come a moment after its client has the answer.
 */
const scrapeUntilMoved = async (port: number, before: Exposition, name: string, expected: Map<string, number>) => {
  const deadline = Date.now() + 3_000
  for (;;) {
    const after = await exposition(port)
    const moved = deltas(before, after, name)
    if (Date.now() > deadline || JSON.stringify([...moved].sort()) === JSON.stringify([...expected].sort())) {
      return { after, moved }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const send = async (port: number, method: string, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers })
  await response.arrayBuffer()
  return response.status
}

const bearer = (token: string): Interceptor => (next) => (request) => {
  request.header.set("authorization", `Bearer ${token}`)
  return next(request)
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(() => "ok", (error: unknown) => Code[ConnectError.from(error).code])

/** The same request several times; what each answered. */
const repeat = async (times: number, request: () => Promise<number | string>) => {
  const answers: Array<number | string> = []
  for (let i = 0; i < times; i++) answers.push(await request())
  return answers
}

const httpKey = (method: string, route: string, status: string) => seriesKey(requests, { method, route, status })
const rpcKey = (method: string, protocol: string, code: string, service = "todo.TodoService") =>
  seriesKey(calls, { service, method, protocol, code })

/** The `grpc-status` of a gRPC call of `path` with an empty message. */
const grpcCall = async (port: number, path: string) => String((await grpcEmptyCall(port, path))["grpc-status"] ?? "")

describe("/metrics: every answer counted once, by route template and status, RPCs by method and code", {
  timeout: 180_000
}, () => {
  let server: ServerProcess
  let token: string
  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: "memory://",
      ADMIN_NAME: "admin",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn"
    })
    token = await loginAsAdmin(server.port)
  }, 120_000)
  afterAll(() => server?.stop())

  it("is the Prometheus text format, with the process's metrics and the database pool's, and scrapes are not counted", async () => {
    const first = await scrape(server.port)
    expect(first.status).toBe(200)
    expect(first.contentType).toBe("text/plain; version=0.0.4; charset=utf-8")
    const metrics = parseExposition(first.text)
    expect(metrics.types.get("http_server_request_duration_seconds")).toBe("histogram")
    expect(metrics.types.get("rpc_server_duration_seconds")).toBe("histogram")
    for (
      const name of [
        "process_cpu_user_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_seconds",
        "nodejs_heap_size_used_bytes"
      ]
    ) {
      expect(samplesOf(metrics, name).length, name).toBeGreaterThan(0)
    }
    // The embedded database: one connection, multiplexed.
    expect(samplesOf(metrics, "db_client_connections_max")[0]?.value).toBe(1)
    const idle = samplesOf(metrics, "db_client_connections", { state: "idle" })[0]?.value
    const used = samplesOf(metrics, "db_client_connections", { state: "used" })[0]?.value
    expect(idle! + used!).toBeGreaterThanOrEqual(1)
    expect(samplesOf(metrics, "db_client_connections_pending_requests")[0]?.value).toBe(0)

    const again = await exposition(server.port)
    expect(deltas(metrics, again, requests)).toEqual(new Map())
    expect(again.samples.some((sample) => sample.labels["route"] === "/metrics")).toBe(false)
  })

  it("REST requests: each once, by template and status (reads by id in both spellings of the scheme, an unknown record, refusals, documents)", async () => {
    const before = await exposition(server.port)
    const answers = {
      live: await repeat(3, () => send(server.port, "GET", "/health/live")),
      // Until issue 15 a separate fast path answered `Bearer` reads and handed unknown records to
      // the API; the three kinds stay, so the counts show the one path counts each of them once.
      byId: await repeat(2, () => send(server.port, "GET", "/users/1", { authorization: `Bearer ${token}` })),
      lowerCaseScheme: await repeat(
        2,
        () => send(server.port, "GET", "/users/1", { authorization: `bearer ${token}` })
      ),
      unknownRecord: await repeat(
        2,
        () => send(server.port, "GET", "/users/999999", { authorization: `Bearer ${token}` })
      ),
      noToken: await repeat(1, () => send(server.port, "GET", "/session/7")),
      wrongMethod: await repeat(2, () => send(server.port, "DELETE", "/auth/login")),
      headOfGet: await repeat(1, () => send(server.port, "HEAD", "/health/live")),
      patch: await repeat(1, () => send(server.port, "PATCH", "/health/live")),
      docs: await repeat(1, () => send(server.port, "GET", "/openapi.json"))
    }
    expect(answers).toEqual({
      live: [200, 200, 200],
      byId: [200, 200],
      lowerCaseScheme: [200, 200],
      unknownRecord: [404, 404],
      noToken: [401],
      wrongMethod: [405, 405],
      headOfGet: [200],
      patch: [405],
      docs: [200]
    })
    const after = await exposition(server.port)
    expect(deltas(before, after, requests)).toEqual(
      new Map([
        [httpKey("GET", "/health/live", "200"), 3],
        [httpKey("GET", "/users/{id}", "200"), 4],
        [httpKey("GET", "/users/{id}", "404"), 2],
        [httpKey("GET", "/session/{id}", "401"), 1],
        [httpKey("DELETE", "/auth/login", "405"), 2],
        [httpKey("HEAD", "/health/live", "200"), 1],
        [httpKey("PATCH", "/health/live", "405"), 1],
        [httpKey("GET", "/openapi.json", "200"), 1]
      ])
    )
    expect(deltas(before, after, calls)).toEqual(new Map())
    // The latency of each: a histogram whose +Inf bucket is its count.
    const inf = samplesOf(after, "http_server_request_duration_seconds_bucket", {
      route: "/users/{id}",
      status: "200",
      le: "+Inf"
    })
    expect(inf[0]?.value).toBe(samplesOf(after, requests, { route: "/users/{id}", status: "200" })[0]?.value)
  })

  it("labels stay bounded: distinct ids are one route, distinct unknown paths one `unmatched`, and odd methods `OTHER`", async () => {
    const before = await exposition(server.port)
    for (let i = 0; i < 40; i++) {
      expect(await send(server.port, "GET", `/users/${1_000_000 + i}`, { authorization: `bearer ${token}` })).toBe(404)
      expect(await send(server.port, "GET", `/no/such/path/${i}?q=${i}`)).toBe(404)
      expect(await send(server.port, "POST", `/nothing-here-${i}/x`)).toBe(404)
    }
    const odd = await Promise.all(
      ["PROPFIND", "MKCOL", "PURGE"].map((method) => send(server.port, method, "/health/live"))
    )
    expect(odd).toEqual([405, 405, 405])
    const after = await exposition(server.port)
    const expected = new Map([
      [httpKey("GET", "/users/{id}", "404"), 40],
      [httpKey("GET", "unmatched", "404"), 40],
      [httpKey("POST", "unmatched", "404"), 40],
      [httpKey("OTHER", "/health/live", "405"), 3]
    ])
    expect(deltas(before, after, requests)).toEqual(expected)
    const routes = new Set(samplesOf(after, requests).map((sample) => sample.labels["route"]))
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-zA-Z/.{}]*)$/u)
    // The 123 requests added no series but those four, whatever ids, paths and methods they sent.
    const earlier = new Set(samplesOf(before, requests).map((sample) => seriesKey(requests, sample.labels)))
    const added = samplesOf(after, requests).map((sample) => seriesKey(requests, sample.labels)).filter((key) =>
      !earlier.has(key)
    )
    for (const key of added) expect(expected.has(key), key).toBe(true)
  })

  it("TodoService calls: each once by method, protocol and code, over Connect (HTTP/1.1 and HTTP/2), gRPC-Web and gRPC", async () => {
    const baseUrl = `http://127.0.0.1:${server.port}`
    const client = (transport: (interceptors: Array<Interceptor>) => Transport, withToken = true) =>
      createClient(TodoService, transport(withToken ? [bearer(token)] : []))
    const connect1 = (interceptors: Array<Interceptor>) =>
      createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors })
    const connect2 = (interceptors: Array<Interceptor>) =>
      createConnectTransport({ baseUrl, httpVersion: "2", interceptors })
    const grpcWeb = (interceptors: Array<Interceptor>) =>
      createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors })
    const grpc = (interceptors: Array<Interceptor>) => createGrpcTransport({ baseUrl, interceptors })

    const before = await exposition(server.port)
    const created = await client(connect1).createTask({ title: "metrics", description: "counted" })
    const answers = {
      connectFast: await repeat(2, () => codeOf(client(connect1).listTasks({}))),
      connectFastRefused: await repeat(1, () => codeOf(client(connect1, false).listTasks({}))),
      connectNode: await repeat(2, () => codeOf(client(connect2).listTasks({}))),
      grpcWeb: await repeat(1, () => codeOf(client(grpcWeb).listTasks({}))),
      grpcWebRefused: await repeat(2, () => codeOf(client(grpcWeb, false).listTasks({}))),
      grpc: await repeat(1, () => codeOf(client(grpc).deleteTask({ id: created.id }))),
      grpcRefused: await repeat(1, () => codeOf(client(grpc, false).createTask({ title: "x", description: "y" }))),
      grpcUnknownMethod: await repeat(1, () => grpcCall(server.port, "/todo.TodoService/Nope")),
      grpcUnknownService: await repeat(1, () => grpcCall(server.port, "/grpc.unknown.v1.Nowhere/Check")),
      grpcHealth: await repeat(2, () => grpcCall(server.port, "/grpc.health.v1.Health/Check")),
      grpcHealthUnknownMethod: await repeat(1, () => grpcCall(server.port, "/grpc.health.v1.Health/Nope"))
    }
    expect(answers).toEqual({
      connectFast: ["ok", "ok"],
      connectFastRefused: ["Unauthenticated"],
      connectNode: ["ok", "ok"],
      grpcWeb: ["ok"],
      grpcWebRefused: ["Unauthenticated", "Unauthenticated"],
      grpc: ["ok"],
      grpcRefused: ["Unauthenticated"],
      grpcUnknownMethod: ["12"],
      grpcUnknownService: ["12"],
      grpcHealth: ["0", "0"],
      grpcHealthUnknownMethod: ["12"]
    })
    const expected = new Map([
      [rpcKey("CreateTask", "connect", "ok"), 1],
      [rpcKey("ListTasks", "connect", "ok"), 4],
      [rpcKey("ListTasks", "connect", "unauthenticated"), 1],
      [rpcKey("ListTasks", "grpc_web", "ok"), 1],
      [rpcKey("ListTasks", "grpc_web", "unauthenticated"), 2],
      [rpcKey("DeleteTask", "grpc", "ok"), 1],
      [rpcKey("CreateTask", "grpc", "unauthenticated"), 1],
      [rpcKey("unknown", "grpc", "unimplemented"), 1],
      [rpcKey("unknown", "grpc", "unimplemented", "unknown"), 1],
      // The other services on the port are counted by their own names.
      [rpcKey("Check", "grpc", "ok", "grpc.health.v1.Health"), 2],
      [rpcKey("unknown", "grpc", "unimplemented", "grpc.health.v1.Health"), 1]
    ])
    const { after, moved } = await scrapeUntilMoved(server.port, before, calls, expected)
    expect(moved).toEqual(expected)
    // Each call is one HTTP request too, under its method's path (gRPC: HTTP 200 whatever the code).
    expect(deltas(before, after, requests)).toEqual(
      new Map([
        [httpKey("POST", "/todo.TodoService/CreateTask", "200"), 2],
        // Connect's ok calls, and all of gRPC-Web's: its refusals are HTTP 200 too, with the code in a trailer frame.
        [httpKey("POST", "/todo.TodoService/ListTasks", "200"), 7],
        [httpKey("POST", "/todo.TodoService/ListTasks", "401"), 1],
        [httpKey("POST", "/todo.TodoService/DeleteTask", "200"), 1],
        [httpKey("POST", "/grpc.health.v1.Health/Check", "200"), 2],
        [httpKey("POST", "unmatched", "200"), 3]
      ])
    )
  })

  it("answers a scrape fast", async () => {
    const times: Array<number> = []
    for (let i = 0; i < 20; i++) {
      const started = performance.now()
      await scrape(server.port)
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    expect(times[Math.floor(times.length / 2)]).toBeLessThan(50)
  })
})

describe.skipIf(database === undefined)("/metrics on PostgreSQL: the pool's connections", { timeout: 120_000 }, () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: "memory://",
      DATABASE_URL: database!.urlVia(database!.server.host, database!.server.port),
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn"
    })
  }, 120_000)
  afterAll(() => server?.stop())

  it("counts the pool's idle and used connections against its maximum (10), and the checkouts waiting", async () => {
    await Promise.all(Array.from({ length: 30 }, () => send(server.port, "GET", "/health/ready")))
    const metrics = await exposition(server.port)
    expect(samplesOf(metrics, "db_client_connections_max")[0]?.value).toBe(10)
    const idle = samplesOf(metrics, "db_client_connections", { state: "idle" })[0]!.value
    const used = samplesOf(metrics, "db_client_connections", { state: "used" })[0]!.value
    // The LISTEN of the credentials cache holds one connection for good.
    expect(used).toBeGreaterThanOrEqual(1)
    expect(idle + used).toBeGreaterThanOrEqual(2)
    expect(idle + used).toBeLessThanOrEqual(10)
    expect(samplesOf(metrics, "db_client_connections_pending_requests")[0]?.value).toBe(0)
  })
})

describe("METRICS and METRICS_PORT", { timeout: 120_000 }, () => {
  it("METRICS=off: nothing is measured and /metrics is no exposition (no route: a name where the API's `GET /{id}` has an id)", async () => {
    const server = await startServer({
      DATA_DIR: "memory://",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn",
      METRICS: "off"
    })
    try {
      const answer = await scrape(server.port)
      expect(answer.status).toBe(404)
      expect(answer.contentType).toBe("application/problem+json")
    } finally {
      await server.stop()
    }
  })

  it("METRICS_PORT: /metrics on that port of METRICS_HOST only, counting the service port's requests", async () => {
    const metricsPort = await freePort()
    const server = await startServer({
      DATA_DIR: "memory://",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "info",
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: "127.0.0.1"
    })
    try {
      expect((await scrape(server.port)).status).toBe(404)
      const before = await exposition(metricsPort)
      expect(await send(server.port, "GET", "/health/live")).toBe(200)
      const after = await exposition(metricsPort)
      expect(deltas(before, after, requests)).toEqual(new Map([[httpKey("GET", "/health/live", "200"), 1]]))
      expect((await scrape(metricsPort, "/other")).status).toBe(404)
      expect(
        server.logs().some((line) =>
          line.annotations["event"] === "metrics-listening" && line.annotations["port"] === metricsPort
        )
      )
        .toBe(true)
    } finally {
      await server.stop()
    }
  })

  it("a METRICS_PORT that is no port stops the start, naming the variable", async () => {
    const server = await import("@club/test-support").then(({ spawnServer }) =>
      spawnServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword, METRICS_PORT: "nine" })
    )
    const exit = await server.exited
    expect(exit.code).not.toBe(0)
    expect(server.output.join("\n")).toContain("METRICS_PORT")
  })
})
