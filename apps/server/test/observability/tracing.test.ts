import { TodoService } from "@club/contract/todo"
import { createClient, type Interceptor } from "@connectrpc/connect"
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adminPassword, loginAsAdmin } from "../connect/support/login.ts"
import { type ReceivedSpan, SpanKind, startOtlpReceiver } from "../support/otlpReceiver.ts"
import { type ServerProcess, startServer } from "@club/test-support"

type Receiver = Awaited<ReturnType<typeof startOtlpReceiver>>

/** A W3C trace context of a client's own span: a new trace id and span id. */
const clientSpan = () => {
  const traceId = randomBytes(16).toString("hex")
  const spanId = randomBytes(8).toString("hex")
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` }
}

const withHeaders = (headers: Record<string, string>): Interceptor => (next) => (request) => {
  for (const [name, value] of Object.entries(headers)) request.header.set(name, value)
  return next(request)
}

/** The spans of one trace, and the server span among them whose parent is the client's span. */
const traceOf = (spans: ReadonlyArray<ReceivedSpan>, client: { traceId: string; spanId: string }) => {
  const trace = spans.filter((span) => span.traceId === client.traceId)
  const servers = trace.filter((span) => span.parentSpanId === client.spanId)
  return { trace, servers }
}

/** Every span of the trace descends from `root`: its parent is `root` or another span of the trace that does. */
const descendants = (trace: ReadonlyArray<ReceivedSpan>, root: ReceivedSpan) => {
  const byId = new Map(trace.map((span) => [span.spanId, span]))
  const reachesRoot = (span: ReceivedSpan): boolean => {
    for (
      let at: ReceivedSpan | undefined = span, hops = 0;
      at !== undefined && hops < 50;
      at = byId.get(at.parentSpanId), hops++
    ) {
      if (at.spanId === root.spanId) return true
    }
    return false
  }
  return trace.filter((span) => span !== root && reachesRoot(span))
}

describe("OTLP traces: OTEL_EXPORTER_OTLP_ENDPOINT set (protobuf, the default)", { timeout: 180_000 }, () => {
  let receiver: Receiver
  let server: ServerProcess
  const rest = clientSpan()
  const restUnknown = clientSpan()
  const connectCall = clientSpan()
  const grpcCall = clientSpan()
  const refusedCall = clientSpan()

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    server = await startServer({
      DATA_DIR: "memory://",
      ADMIN_NAME: "admin",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "club-under-test"
    })
    const token = await loginAsAdmin(server.port)
    const baseUrl = `http://127.0.0.1:${server.port}`
    const read = await fetch(`${baseUrl}/users/1`, {
      headers: { authorization: `Bearer ${token}`, traceparent: rest.traceparent }
    })
    expect(read.status).toBe(200)
    const unknown = await fetch(`${baseUrl}/users/999999`, {
      headers: { authorization: `Bearer ${token}`, traceparent: restUnknown.traceparent }
    })
    expect(unknown.status).toBe(404)
    // Connect JSON over HTTP/1.1 and gRPC over h2c: connect-node, its interceptor and handler.
    await createClient(
      TodoService,
      createConnectTransport({
        baseUrl,
        httpVersion: "1.1",
        interceptors: [withHeaders({ authorization: `Bearer ${token}`, traceparent: connectCall.traceparent })]
      })
    ).listTasks({})
    await createClient(
      TodoService,
      createGrpcTransport({
        baseUrl,
        interceptors: [withHeaders({ authorization: `Bearer ${token}`, traceparent: grpcCall.traceparent })]
      })
    ).createTask({ title: "traced", description: "over gRPC" })
    await expect(
      createClient(
        TodoService,
        createGrpcTransport({ baseUrl, interceptors: [withHeaders({ traceparent: refusedCall.traceparent })] })
      )
        .listTasks({})
    ).rejects.toThrow(/bearer token/u)
    // The exporter sends what it still holds when the server stops.
    const exit = await server.stop()
    expect(exit.code).toBe(0)
  }, 180_000)
  afterAll(() => receiver?.close())

  it("the receiver got protobuf batches at <endpoint>/v1/traces, named for OTEL_SERVICE_NAME, and nothing it refused", () => {
    expect(receiver.refused).toEqual([])
    expect(receiver.spans.length).toBeGreaterThan(0)
    expect(new Set(receiver.spans.map((span) => span.path))).toEqual(new Set(["/v1/traces"]))
    expect(new Set(receiver.spans.map((span) => span.encoding))).toEqual(new Set(["protobuf"]))
    expect(new Set(receiver.spans.map((span) => span.serviceName))).toEqual(new Set(["club-under-test"]))
  })

  it("a REST request: one server span `GET /users/{id}`, child of the client's traceparent, parent of the use-case's spans", () => {
    const { trace, servers } = traceOf(receiver.spans, rest)
    expect(servers.map((span) => [span.name, span.kind])).toEqual([["GET /users/{id}", SpanKind.server]])
    const request = servers[0]!
    expect(request.attributes["http.route"]).toBe("/users/:id")
    expect(request.attributes["http.response.status_code"]).toBe(200)
    const children = descendants(trace, request)
    expect(children.length).toBeGreaterThan(0)
    // Every span of the trace hangs under the request's.
    expect(children.length).toBe(trace.length - 1)
    expect(children.some((span) => span.parentSpanId === request.spanId)).toBe(true)
    // The SQL statement's client span: ended (so exported) with tracing on, where the patched
    // statement leaves only a no-op span's end out (docs/DECISIONS.md "Spans cost nothing").
    expect(children.some((span) => span.kind === SpanKind.client && span.attributes["db.query.text"] !== undefined))
      .toBe(true)
  })

  it("a REST request that fails (404): its span too, with the status", () => {
    const { servers } = traceOf(receiver.spans, restUnknown)
    expect(servers.map((span) => [span.name, span.attributes["http.response.status_code"]])).toEqual([[
      "GET /users/{id}",
      404
    ]])
  })

  it("a Connect call: one server span `todo.TodoService/ListTasks`, parent of the call's spans", () => {
    const { trace, servers } = traceOf(receiver.spans, connectCall)
    expect(servers.map((span) => [span.name, span.kind])).toEqual([["todo.TodoService/ListTasks", SpanKind.server]])
    const call = servers[0]!
    expect(call.attributes["rpc.service"]).toBe("todo.TodoService")
    expect(call.attributes["rpc.method"]).toBe("ListTasks")
    const children = descendants(trace, call)
    expect(children.length).toBeGreaterThan(0)
    expect(children.length).toBe(trace.length - 1)
  })

  it("a gRPC call (connect-node): one server span enclosing the auth interceptor's spans and the handler's", () => {
    const { trace, servers } = traceOf(receiver.spans, grpcCall)
    expect(servers.map((span) => [span.name, span.kind])).toEqual([["todo.TodoService/CreateTask", SpanKind.server]])
    const call = servers[0]!
    const children = descendants(trace, call)
    expect(children.length).toBe(trace.length - 1)
    // Authentication and the create both ran under it: at least two direct children.
    expect(children.filter((span) => span.parentSpanId === call.spanId).length).toBeGreaterThanOrEqual(2)
  })

  it("a call refused by the interceptor (no token): its server span all the same", () => {
    const { servers } = traceOf(receiver.spans, refusedCall)
    expect(servers.map((span) => span.name)).toEqual(["todo.TodoService/ListTasks"])
  })

  it("requests without a traceparent start traces of their own (the login, the readiness polls)", () => {
    const login = receiver.spans.filter((span) => span.name === "POST /auth/login")
    expect(login.length).toBe(1)
    expect(login[0]!.parentSpanId).toBe("")
  })
})

/**
 * A receiver, and a server on the embedded database with the tracing variables `env` computes from
 * the receiver's address; the receiver is closed whatever `use` does (the server `use` stops).
 */
const withReceiver = async (
  env: Record<string, (receiver: Receiver) => string>,
  use: (receiver: Receiver, server: ServerProcess) => Promise<void>
) => {
  const receiver = await startOtlpReceiver()
  try {
    const variables = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value(receiver)]))
    const server = await startServer({
      DATA_DIR: "memory://",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn",
      ...variables
    })
    await use(receiver, server)
  } finally {
    await receiver.close()
  }
}

describe("OTLP traces: JSON to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given", { timeout: 120_000 }, () => {
  it("posts OTLP/JSON to the traces endpoint's own path, and without OTEL_SERVICE_NAME names the service club-training-service", async () => {
    await withReceiver({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: (receiver) => `${receiver.url}/collector/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: () => "http/json"
    }, async (receiver, server) => {
      const client = clientSpan()
      expect(
        (await fetch(`http://127.0.0.1:${server.port}/health/live`, { headers: { traceparent: client.traceparent } }))
          .status
      ).toBe(200)
      await server.stop()
      expect(receiver.refused).toEqual([])
      expect(new Set(receiver.spans.map((span) => `${span.encoding} ${span.path} ${String(span.serviceName)}`)))
        .toEqual(
          new Set(["json /collector/traces club-training-service"])
        )
      expect(traceOf(receiver.spans, client).servers.map((span) => span.name)).toEqual(["GET /health/live"])
    })
  })

  it("OTEL_TRACES_EXPORTER=none keeps tracing off, endpoint or not; a gRPC protocol stops the start, naming the variable", async () => {
    await withReceiver({
      OTEL_EXPORTER_OTLP_ENDPOINT: (receiver) => receiver.url,
      OTEL_TRACES_EXPORTER: () => "none"
    }, async (receiver, server) => {
      expect((await fetch(`http://127.0.0.1:${server.port}/health/live`)).status).toBe(200)
      await server.stop()
      expect(receiver.spans).toEqual([])
    })
    const { spawnServer } = await import("@club/test-support")
    const refused = await spawnServer({
      DATA_DIR: "memory://",
      ADMIN_PASSWORD: adminPassword,
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc"
    })
    expect((await refused.exited).code).not.toBe(0)
    expect(refused.output.join("\n")).toContain("OTEL_EXPORTER_OTLP_PROTOCOL")
  })
})
