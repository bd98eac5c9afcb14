import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import * as grpc from "@grpc/grpc-js"
import * as protoLoader from "@grpc/proto-loader"
import { protoPath as healthProto } from "grpc-health-check"
import { GrpcReflection } from "grpc-js-reflection-client"
import { execFile } from "node:child_process"
import * as Http2 from "node:http2"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import { eventually, startServer, type ServerProcess } from "@club/test-support"
import { startTcpProxy } from "../support/TcpProxy.ts"
import { adminPassword, startWithAdmin } from "./support/login.ts"

/**
 * TodoService among the usual gRPC tools, each a stock client that has no proto file of ours:
 * `buf curl` and grpc-js-reflection-client through server reflection, and grpc-js's health
 * checking with the proto the grpc-health-check package ships, as load balancers and Kubernetes
 * probes call it.
 */

const buf = fileURLToPath(new URL("../../../../packages/contract/node_modules/.bin/buf", import.meta.url))
const run = promisify(execFile)

const servedServices = [
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
  "todo.TodoService"
]

/** HealthCheckResponse.ServingStatus, as grpc-js reads it with `enums: String`. */
type Status = "UNKNOWN" | "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN"

interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    callback: (error: grpc.ServiceError | null, response?: { status: Status }) => void
  ): void
  Watch(request: { service: string }): grpc.ClientReadableStream<{ status: Status }>
}

const healthDefinition = protoLoader.loadSync(healthProto, { keepCase: true, enums: String, defaults: true })
const HealthClientConstructor =
  (grpc.loadPackageDefinition(healthDefinition)["grpc"] as grpc.GrpcObject)["health"] as grpc.GrpcObject

/** grpc-js's health client, with the official proto as the grpc-health-check package ships it. */
const healthClient = (port: number): HealthClient => {
  const Health = (HealthClientConstructor["v1"] as grpc.GrpcObject)["Health"] as grpc.ServiceClientConstructor
  // Each client its own channel, so that closing one closes its connection (as separate balancers would).
  return new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.use_local_subchannel_pool": 1
  }) as unknown as HealthClient
}

const check = (client: HealthClient, service: string) =>
  new Promise<Status | grpc.status>((resolve) =>
    client.Check({ service }, (error, response) => resolve(error === null ? response!.status : error.code))
  )

/** A Watch call and everything it received: statuses, then how it ended. */
const watch = (client: HealthClient, service: string) => {
  const call = client.Watch({ service })
  const received: Array<Status | grpc.status> = []
  const ended = new Promise<grpc.status>((resolve) => {
    call.on("data", (message: { status: Status }) => received.push(message.status))
    call.on("error", (error: grpc.ServiceError) => {
      received.push(error.code)
      resolve(error.code)
    })
    call.on("status", (status: grpc.StatusObject) => resolve(status.code))
  })
  return { call, received, ended }
}

interface RawWatch {
  /** The first status sent, or the code the call was refused with at once. */
  readonly first: Promise<Status | grpc.status>
}

/** A Watch of "" on a bare HTTP/2 session: whoever holds the session can drop it without a word. */
const rawWatch = (session: Http2.ClientHttp2Session): RawWatch => {
  const stream = session.request({
    ":method": "POST",
    ":path": "/grpc.health.v1.Health/Watch",
    "content-type": "application/grpc",
    te: "trailers"
  })
  // An empty HealthCheckRequest (service "") in its envelope.
  stream.end(Buffer.alloc(5))
  stream.on("error", () => undefined)
  const first = new Promise<Status | grpc.status>((resolve) => {
    // Refused: the status in the headers (trailers-only) or in trailers after them.
    for (const event of ["response", "trailers"] as const) {
      stream.on(event, (headers: Http2.IncomingHttpHeaders) => {
        if (headers["grpc-status"] !== undefined) resolve(Number(headers["grpc-status"]))
      })
    }
    // HealthCheckResponse { status = 1 }: envelope, then field 1 (varint) and the enum's number.
    stream.on(
      "data",
      (chunk: Buffer) => resolve((["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"] as const)[chunk[6] ?? 0]!)
    )
    stream.on("close", () => resolve(grpc.status.UNAVAILABLE))
  })
  return { first }
}

describe("gRPC tools on the embedded database: reflection, health, status messages", { timeout: 120_000 }, () => {
  let server: ServerProcess
  let token: string

  beforeAll(async () => {
    // A tenth of the streams (5) for health watches.
    ;({ server, token } = await startWithAdmin({ DATA_DIR: "memory://", MAX_HTTP2_STREAMS: "50" }))
  })
  afterAll(() => server?.stop())

  const target = () => `http://127.0.0.1:${server.port}`

  for (const protocol of ["grpc", "connect"] as const) {
    const http2 = protocol === "grpc" ? ["--http2-prior-knowledge"] : []
    it(`buf curl --list-services (--protocol ${protocol}) names every service, without the proto file`, async () => {
      const { stdout } = await run(buf, ["curl", "--list-services", "--protocol", protocol, ...http2, target()])
      expect(stdout.trim().split("\n").sort()).toEqual(servedServices)
    })

    it(`buf curl calls TodoService through reflection alone (--protocol ${protocol})`, async () => {
      const { stdout } = await run(buf, [
        "curl",
        "--protocol",
        protocol,
        ...http2,
        "-H",
        `authorization: Bearer ${token}`,
        "-d",
        JSON.stringify({ title: `Reflected (${protocol})`, description: "no proto file" }),
        `${target()}/todo.TodoService/CreateTask`
      ])
      expect(JSON.parse(stdout)).toMatchObject({
        title: `Reflected (${protocol})`,
        description: "no proto file",
        success: true
      })
    })
  }

  it("buf curl --list-methods names every method, and Health/Check answers SERVING without credentials", async () => {
    const { stdout } = await run(buf, [
      "curl",
      "--list-methods",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      target()
    ])
    expect(stdout.trim().split("\n")).toEqual(expect.arrayContaining([
      "grpc.health.v1.Health/Check",
      "grpc.health.v1.Health/Watch",
      "todo.TodoService/CreateTask",
      "todo.TodoService/ListTasks",
      "todo.TodoService/DeleteTask"
    ]))
    const health = await run(buf, [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "-d",
      "{}",
      `${target()}/grpc.health.v1.Health/Check`
    ])
    expect(JSON.parse(health.stdout)).toEqual({ status: "SERVING" })
  })

  it("buf curl shows a refused title's message as it was written", async () => {
    const failure = await run(buf, [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "-H",
      `authorization: Bearer ${token}`,
      "-d",
      JSON.stringify({ title: " " }),
      `${target()}/todo.TodoService/CreateTask`
    ]).catch((error: { stderr: string }) => error)
    expect(JSON.parse((failure as { stderr: string }).stderr)).toEqual({
      code: "invalid_argument",
      message: "title: must be a non-blank string"
    })
  })

  for (const version of ["v1", "v1alpha"] as const) {
    it(`grpc-js-reflection-client (${version}) lists the services, and the descriptor it fetches calls TodoService with grpc-js`, async () => {
      const reflection = new GrpcReflection(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure(), {}, version)
      expect((await reflection.listServices()).sort()).toEqual(servedServices)
      expect((await reflection.listMethods("todo.TodoService")).map((method) => method.name).sort()).toEqual([
        "CreateTask",
        "DeleteTask",
        "ListTasks"
      ])
      const descriptor = await reflection.getDescriptorBySymbol("todo.TodoService")
      const todo = descriptor.getPackageObject({ keepCase: true, defaults: true })["todo"] as grpc.GrpcObject
      const TodoService = todo["TodoService"] as grpc.ServiceClientConstructor
      const client = new TodoService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure())
      const metadata = new grpc.Metadata()
      metadata.set("authorization", `Bearer ${token}`)
      try {
        const created = await new Promise<{ id: string; title: string; success: boolean }>((resolve, reject) =>
          (client as unknown as Record<string, Function>)["CreateTask"]!(
            { title: `From reflection ${version}` },
            metadata,
            (
              error: grpc.ServiceError | null,
              response: { id: string; title: string; success: boolean }
            ) => (error ? reject(error) : resolve(response))
          )
        )
        expect(created).toMatchObject({ title: `From reflection ${version}`, success: true })
      } finally {
        client.close()
      }
      const health = await reflection.getDescriptorByFileName("grpc/health/v1/health.proto")
      const healthPackage =
        ((health.getPackageObject({})["grpc"] as grpc.GrpcObject)["health"] as grpc.GrpcObject)["v1"] as grpc.GrpcObject
      expect(Object.keys(healthPackage)).toEqual(
        expect.arrayContaining(["Health", "HealthCheckRequest", "HealthCheckResponse"])
      )
      await expect(reflection.getDescriptorBySymbol("todo.Nope")).rejects.toBeDefined()
    })
  }

  it("grpc-js with a refused title shows `title: must be ...`, not percent-encoded", async () => {
    const definition = protoLoader.loadSync(
      fileURLToPath(new URL("../../../../packages/contract/proto/todo.proto", import.meta.url)),
      { keepCase: true, defaults: true }
    )
    const TodoService = (grpc.loadPackageDefinition(definition)["todo"] as grpc.GrpcObject)[
      "TodoService"
    ] as grpc.ServiceClientConstructor
    const client = new TodoService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure())
    const metadata = new grpc.Metadata()
    metadata.set("authorization", `Bearer ${token}`)
    try {
      const error = await new Promise<grpc.ServiceError>((resolve) =>
        (client as unknown as Record<string, Function>)["CreateTask"]!(
          { title: "", description: "" },
          metadata,
          resolve
        )
      )
      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: "title: must be a non-blank string" })
    } finally {
      client.close()
    }
  })

  it("grpc-js health: Check SERVING for the server and TodoService, NOT_FOUND for another name, no credentials", async () => {
    const client = healthClient(server.port)
    try {
      expect(await check(client, "")).toBe("SERVING")
      expect(await check(client, "todo.TodoService")).toBe("SERVING")
      expect(await check(client, "todo.Nope")).toBe(grpc.status.NOT_FOUND)
    } finally {
      client.close()
    }
  })

  it("grpc-js health: Watch sends SERVING at once; SERVICE_UNKNOWN for another name, and stays open", async () => {
    const client = healthClient(server.port)
    try {
      const known = watch(client, "todo.TodoService")
      const unknown = watch(client, "todo.Nope")
      expect(await eventually(async () => known.received.length > 0 && unknown.received.length > 0, 10_000, 20)).toBe(
        true
      )
      await sleep(300)
      expect(known.received).toEqual(["SERVING"])
      expect(unknown.received).toEqual(["SERVICE_UNKNOWN"])
      known.call.cancel()
      unknown.call.cancel()
      expect(await known.ended).toBe(grpc.status.CANCELLED)
    } finally {
      client.close()
    }
  })

  it("a flood of Watch streams is bounded (resource_exhausted beyond a tenth of MAX_HTTP2_STREAMS) and leaves nothing behind once its clients go", async () => {
    for (let round = 0; round < 3; round++) {
      // Every place is free (again): five watches are served. Those of earlier tests and rounds
      // went away with their clients.
      let first = Http2.connect(target())
      let served: Array<RawWatch> = []
      expect(
        await eventually(async () => {
          served = Array.from({ length: 5 }, () => rawWatch(first))
          if ((await Promise.all(served.map((w) => w.first))).every((answer) => answer === "SERVING")) return true
          first.destroy()
          first = Http2.connect(target())
          return false
        }, 15_000)
      ).toBe(true)
      // The flood: 25 more, from other clients, each refused at once.
      const sessions = Array.from({ length: 5 }, () => Http2.connect(target()))
      const flood = sessions.flatMap((session) => Array.from({ length: 5 }, () => rawWatch(session)))
      expect(await Promise.all(flood.map((w) => w.first))).toEqual(flood.map(() => grpc.status.RESOURCE_EXHAUSTED))
      // The clients go away, as a process that dies: their connections close, no stream is reset first.
      for (const session of [first, ...sessions]) session.destroy()
    }
    // REST and TodoService are still served.
    expect((await fetch(`${target()}/health/ready`)).status).toBe(200)
  })
})

describe("SIGTERM with health watches open", { timeout: 120_000 }, () => {
  it("tells every watch NOT_SERVING, ends it UNAVAILABLE, and exits promptly with 0", async () => {
    const server = await startServer({
      ADMIN_NAME: "admin",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn",
      DATA_DIR: "memory://"
    })
    const client = healthClient(server.port)
    try {
      const watches = [watch(client, ""), watch(client, "todo.TodoService"), watch(client, "")]
      expect(await eventually(async () => watches.every((w) => w.received.length > 0), 10_000, 20)).toBe(true)
      const stoppedAt = performance.now()
      const exit = await server.stop()
      const tookMs = performance.now() - stoppedAt
      expect(exit).toEqual({ code: 0, signal: null })
      // Not the 10 s bound of the whole shutdown: the watches did not hold the drain.
      expect(tookMs).toBeLessThan(5_000)
      for (const w of watches) {
        expect(await w.ended).toBe(grpc.status.UNAVAILABLE)
        expect(w.received).toEqual(["SERVING", "NOT_SERVING", grpc.status.UNAVAILABLE])
      }
    } finally {
      client.close()
      await server.stop()
    }
  })
})

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

describe.skipIf(database === undefined)("gRPC health follows the database (PostgreSQL server behind a proxy)", {
  timeout: 120_000
}, () => {
  it("Check and Watch turn NOT_SERVING while the database is away, and SERVING again when it is back", async () => {
    const proxy = await startTcpProxy(database!.server)
    const dataDir = await mkdtemp(join(tmpdir(), "club-grpc-health-"))
    const server = await startServer({
      DATABASE_URL: database!.urlVia("127.0.0.1", proxy.port),
      DATA_DIR: dataDir,
      JWT_SECRET: "a-test-secret-that-is-long-enough-to-use",
      LOG_LEVEL: "error"
    })
    const client = healthClient(server.port)
    try {
      const watched = watch(client, "")
      const watchedTodo = watch(client, "todo.TodoService")
      expect(await eventually(async () => watched.received.length > 0 && watchedTodo.received.length > 0, 10_000, 20))
        .toBe(true)
      expect(await check(client, "")).toBe("SERVING")

      await proxy.stop()
      // The watches hear of it by themselves (a poll every 5 s), within the poll and a readiness timeout.
      expect(
        await eventually(
          async () => watched.received.includes("NOT_SERVING") && watchedTodo.received.includes("NOT_SERVING"),
          15_000
        )
      ).toBe(true)
      expect(await check(client, "")).toBe("NOT_SERVING")
      expect(await check(client, "todo.TodoService")).toBe("NOT_SERVING")
      // REST says the same.
      expect((await fetch(`http://127.0.0.1:${server.port}/health/ready`)).status).toBe(503)

      await proxy.restart()
      expect(
        await eventually(
          async () => watched.received.at(-1) === "SERVING" && watchedTodo.received.at(-1) === "SERVING",
          15_000
        )
      ).toBe(true)
      expect(await check(client, "")).toBe("SERVING")
      expect(watched.received).toEqual(["SERVING", "NOT_SERVING", "SERVING"])
      expect(watchedTodo.received).toEqual(["SERVING", "NOT_SERVING", "SERVING"])
      watched.call.cancel()
      watchedTodo.call.cancel()
    } finally {
      client.close()
      await server.stop()
      await proxy.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
