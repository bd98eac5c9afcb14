import { Readiness, TaskService } from "@club/core"
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Health, HealthCheckResponse_ServingStatus as Status } from "../src/gen/grpc/health/v1/health_pb.ts"
import { GrpcHealth } from "../src/health/grpcHealth.ts"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { TestAuthService } from "./fixtures/TestAuthService.ts"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const eventually = async (check: () => boolean | Promise<boolean>, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await sleep(20)
  }
  return false
}

/** The next status a Watch sends, or how it ended. */
const nextOf = async (stream: AsyncIterator<{ status: Status }>) => {
  try {
    const next = await stream.next()
    return next.done === true ? "ended" : next.value.status
  } catch (error) {
    return ConnectError.from(error).code
  }
}

describe("gRPC health checking (grpc.health.v1.Health) over the node handler", () => {
  let ready = true
  const readiness = Layer.succeed(Readiness)({ check: Effect.sync(() => ready) })
  const draining = new AbortController()
  let servers: TodoServers

  beforeAll(async () => {
    servers = await serveTodo(
      Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService),
      { draining: draining.signal, health: { maxWatches: 3, watchIntervalMs: 50 } },
      readiness
    )
  })
  afterAll(() => servers.close())

  const transports: ReadonlyArray<readonly [string, () => Transport]> = [
    ["gRPC over h2c", () => createGrpcTransport({ baseUrl: servers.http2Url })],
    ["gRPC-Web", () => createGrpcWebTransport({ baseUrl: servers.http1Url, httpVersion: "1.1" })],
    ["Connect", () => createConnectTransport({ baseUrl: servers.http1Url, httpVersion: "1.1" })]
  ]

  for (const [name, transport] of transports) {
    it(`Check answers "" and todo.TodoService without credentials, NOT_FOUND for another name (${name})`, async () => {
      const client = createClient(Health, transport())
      expect(await client.check({ service: "" })).toMatchObject({ status: Status.SERVING })
      expect(await client.check({ service: "todo.TodoService" })).toMatchObject({ status: Status.SERVING })
      await expect(client.check({ service: "todo.Nope" })).rejects.toMatchObject({ code: Code.NotFound })
    })
  }

  it("Check follows readiness: NOT_SERVING while it is false, SERVING again after", async () => {
    const client = createClient(Health, transports[0]![1]())
    ready = false
    try {
      expect(await client.check({ service: "" })).toMatchObject({ status: Status.NOT_SERVING })
      expect(await client.check({ service: "todo.TodoService" })).toMatchObject({ status: Status.NOT_SERVING })
    } finally {
      ready = true
    }
    expect(await client.check({ service: "" })).toMatchObject({ status: Status.SERVING })
  })

  it("List names the server and TodoService with their status", async () => {
    const client = createClient(Health, transports[0]![1]())
    const list = await client.list({})
    expect(Object.keys(list.statuses).sort()).toEqual(["", "todo.TodoService"])
    expect(list.statuses[""]?.status).toBe(Status.SERVING)
  })

  for (const [name, transport] of transports) {
    it(`Watch sends the status at once, then each change of readiness (${name})`, async () => {
      const client = createClient(Health, transport())
      const abort = new AbortController()
      const stream = client.watch({ service: "todo.TodoService" }, { signal: abort.signal })[Symbol.asyncIterator]()
      try {
        expect(await nextOf(stream)).toBe(Status.SERVING)
        ready = false
        expect(await nextOf(stream)).toBe(Status.NOT_SERVING)
        ready = true
        expect(await nextOf(stream)).toBe(Status.SERVING)
      } finally {
        ready = true
        abort.abort()
      }
    })
  }

  it("Watch of an unknown service sends SERVICE_UNKNOWN and stays open", async () => {
    const client = createClient(Health, transports[0]![1]())
    const abort = new AbortController()
    const stream = client.watch({ service: "todo.Nope" }, { signal: abort.signal })[Symbol.asyncIterator]()
    try {
      expect(await nextOf(stream)).toBe(Status.SERVICE_UNKNOWN)
      const more = await Promise.race([nextOf(stream), sleep(300).then(() => "still open")])
      expect(more).toBe("still open")
    } finally {
      abort.abort()
    }
  })

  it("Watch streams are bounded: one more than maxWatches is resource_exhausted; places come back when clients go away", async () => {
    const client = createClient(Health, transports[0]![1]())
    const open = async () => {
      const abort = new AbortController()
      const stream = client.watch({ service: "" }, { signal: abort.signal })[Symbol.asyncIterator]()
      return { abort, first: await nextOf(stream) }
    }
    // Earlier tests' watches must be gone first: their clients went away.
    for (let round = 0; round < 3; round++) {
      expect(
        await eventually(async () => {
          const probe = await open()
          probe.abort.abort()
          return probe.first === Status.SERVING
        })
      ).toBe(true)
      const watches = [await open(), await open(), await open()]
      expect(watches.map((watch) => watch.first)).toEqual([Status.SERVING, Status.SERVING, Status.SERVING])
      const refused = await open()
      expect(refused.first).toBe(Code.ResourceExhausted)
      for (const watch of watches) watch.abort.abort()
    }
  })

  it("draining: Check answers NOT_SERVING and every Watch is told NOT_SERVING, then ends unavailable", async () => {
    const client = createClient(Health, transports[0]![1]())
    expect(
      await eventually(async () => {
        const abort = new AbortController()
        const first = await nextOf(client.watch({ service: "" }, { signal: abort.signal })[Symbol.asyncIterator]())
        abort.abort()
        return first === Status.SERVING
      })
    ).toBe(true)
    const watches = ["", "todo.TodoService"].map((service) => client.watch({ service })[Symbol.asyncIterator]())
    for (const watch of watches) expect(await nextOf(watch)).toBe(Status.SERVING)
    draining.abort()
    for (const watch of watches) {
      expect(await nextOf(watch)).toBe(Status.NOT_SERVING)
      expect(await nextOf(watch)).toBe(Code.Unavailable)
    }
    expect(await client.check({ service: "" })).toMatchObject({ status: Status.NOT_SERVING })
    const late = client.watch({ service: "" })[Symbol.asyncIterator]()
    expect(await nextOf(late)).toBe(Status.NOT_SERVING)
    expect(await nextOf(late)).toBe(Code.Unavailable)
  })
})

describe("GrpcHealth's bounds", () => {
  it("runs one readiness check at a time, however many ask", async () => {
    let running = 0
    let most = 0
    let calls = 0
    const health = new GrpcHealth(async () => {
      calls++
      most = Math.max(most, ++running)
      await sleep(30)
      running--
      return true
    }, [""])
    const statuses = await Promise.all(Array.from({ length: 50 }, () => health.status()))
    expect(new Set(statuses)).toEqual(new Set([Status.SERVING]))
    expect(most).toBe(1)
    expect(calls).toBe(1)
  })

  it("polls only while a watch is open, with one timer for all of them, and forgets a watch whose client went away", async () => {
    let calls = 0
    const health = new GrpcHealth(async () => (calls++, true), [""], { watchIntervalMs: 20 })
    expect(health.pollingReadiness).toBe(false)
    const clients = Array.from({ length: 20 }, () => new AbortController())
    const streams = clients.map((client) => health.watch("", client.signal))
    await Promise.all(streams.map((stream) => stream.next()))
    expect(health.watching).toBe(20)
    expect(health.pollingReadiness).toBe(true)
    const before = calls
    await sleep(210)
    // One shared poll every 20 ms: about 10 checks (fewer on a busy machine), not 20 watches × 10.
    expect(calls - before).toBeGreaterThan(0)
    expect(calls - before).toBeLessThan(20)
    // The clients go away while each stream waits for news.
    const ends = streams.map((stream) => stream.next())
    for (const client of clients) client.abort()
    expect((await Promise.all(ends)).every((end) => end.done === true)).toBe(true)
    expect(health.watching).toBe(0)
    expect(health.pollingReadiness).toBe(false)
    const after = calls
    await sleep(100)
    expect(calls).toBe(after)
  })

  it("a stream closed by its consumer (return) is forgotten too", async () => {
    const health = new GrpcHealth(async () => true, [""], { watchIntervalMs: 20 })
    const stream = health.watch("", new AbortController().signal)
    await stream.next()
    expect(health.watching).toBe(1)
    await stream.return(undefined)
    expect(health.watching).toBe(0)
    expect(health.pollingReadiness).toBe(false)
  })

  it("drain stops the poll and ends every watch", async () => {
    const health = new GrpcHealth(async () => true, [""], { watchIntervalMs: 20 })
    const streams = Array.from({ length: 5 }, () => health.watch("", new AbortController().signal))
    await Promise.all(streams.map((stream) => stream.next()))
    health.drain()
    for (const stream of streams) {
      expect(await stream.next()).toMatchObject({ value: { status: Status.NOT_SERVING } })
      await expect(stream.next()).rejects.toMatchObject({ code: Code.Unavailable })
    }
    expect(health.watching).toBe(0)
    expect(health.pollingReadiness).toBe(false)
  })
})
