import {
  CreateTaskRequestSchema,
  DeleteTaskRequestSchema,
  ListTasksRequestSchema,
  TodoService
} from "@club/contract/todo"
import { create, toBinary, toJsonString } from "@bufbuild/protobuf"
import { ConnectError, createClient } from "@connectrpc/connect"
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hostileJson, hostileString, malformedBodies, wellFormed } from "./fuzz/hostileValues.ts"
import { budget, isLongRun } from "./support/budget.ts"
import { postgresAnswers } from "./support/Deployment.ts"
import { databaseLabel, oneInstance } from "./support/oneInstance.ts"
import { rawClient, type RawClient } from "./support/rawHttp.ts"
import { percentile, recordResult } from "./support/results.ts"
import {
  callConnect,
  callGrpcWeb,
  codeNames,
  envelope,
  grpcSession,
  type Protocol,
  type RpcAnswer
} from "./support/rpcWire.ts"

/** Codes that would mean the server failed rather than refused: never the answer to bad input. */
const failureCodes = new Set(["internal", "unknown", "unavailable", "data_loss", "malformed", "no answer within 10 s"])

/**
 * A compressed envelope without an encoding is a protocol violation that gRPC answers `internal`
 * (grpc-go does the same), before any interceptor runs. Clean, framed, and never logged as a
 * failure: counted apart, and accepted only with this message. Bytes that do not parse as the
 * message are `invalid_argument` (the project's patch of connect-es, docs/DECISIONS.md).
 */
const isLibraryDecodeError = (answer: RpcAnswer) =>
  answer.code === "internal" &&
  answer.message.startsWith("received compressed envelope, but do not know how to decompress")
const oneMiB = 1024 * 1024
/** Node's HTTP/2 client gave up on a session after about 10 of them (docs/RELIABILITY.md, promise 2b). */
const oversizeOnOneSession = 50

type Method = "CreateTask" | "ListTasks" | "DeleteTask" | "Nope"

interface RpcCase {
  readonly protocol: Protocol
  readonly method: Method
  readonly kind: string
  /** The message bytes (or JSON text for Connect JSON), before any gRPC envelope. */
  readonly message: Buffer
  /** How the gRPC envelope is broken, if it is. */
  readonly framing:
    | "ok"
    | "length-too-long"
    | "length-too-short"
    | "compressed-flag"
    | "trailer-flag"
    | "two-messages"
    | "none"
  readonly caller: "ADMIN" | "ATHLETE" | "none" | "garbage"
  /** The one code this case must answer, where there is one. */
  readonly expect?: string
}

const validMessage = (method: Method) =>
  fc.tuple(hostileString, hostileString, fc.constantFrom("", "00000000-0000-0000-0000-000000000000", "not-a-uuid")).map(
    ([title, description, id]) => {
      const text = wellFormed
      switch (method) {
        case "CreateTask":
          return Buffer.from(
            toBinary(
              CreateTaskRequestSchema,
              create(CreateTaskRequestSchema, { title: text(title).slice(0, 300), description: text(description) })
            )
          )
        case "DeleteTask":
          return Buffer.from(toBinary(DeleteTaskRequestSchema, create(DeleteTaskRequestSchema, { id })))
        default:
          return Buffer.from(toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema, {})))
      }
    }
  )

const wrongJson = fc.oneof(
  fc.record({ title: hostileJson, description: hostileJson }, { requiredKeys: [] }).map((value) =>
    JSON.stringify(value)
  ),
  fc.record({ id: hostileJson }).map((value) => JSON.stringify(value)),
  fc.constant(JSON.stringify({ unknownField: 1 })),
  malformedBodies
).map((text) => Buffer.from(text))

const validJson = (method: Method) =>
  hostileString.map((title) =>
    Buffer.from(
      method === "CreateTask"
        ? toJsonString(
          CreateTaskRequestSchema,
          create(CreateTaskRequestSchema, { title: wellFormed(title).slice(0, 250) })
        )
        : method === "DeleteTask"
        ? JSON.stringify({ id: wellFormed(title).slice(0, 50) })
        : "{}"
    )
  )

const oversize = fc.constant(
  Buffer.from(
    toBinary(
      CreateTaskRequestSchema,
      create(CreateTaskRequestSchema, { title: "t", description: "d".repeat(oneMiB + 100) })
    )
  )
)

const rpcCases: fc.Arbitrary<RpcCase> = fc.tuple(
  fc.constantFrom<Protocol>("connect-proto", "connect-json", "grpc-web", "grpc"),
  fc.constantFrom<Method>("CreateTask", "ListTasks", "DeleteTask", "CreateTask", "Nope"),
  fc.constantFrom<RpcCase["caller"]>("ADMIN", "ATHLETE", "ADMIN", "none", "garbage"),
  fc.nat({ max: 99 })
).chain(([protocol, method, caller, dice]) => {
  const base = { protocol, method, caller, framing: "ok" as const }
  if (dice < 2) {
    return oversize.map((message) => ({
      ...base,
      method: "CreateTask" as const,
      kind: "oversize",
      message,
      expect: "resource_exhausted"
    }))
  }
  if (protocol === "connect-json") {
    return (dice < 40 ? validJson(method) : wrongJson).map((message) => ({
      ...base,
      kind: dice < 40 ? "valid-json" : "wrong-json",
      message
    }))
  }
  const framings = protocol === "connect-proto"
    ? ["ok" as const]
    : ["length-too-long", "length-too-short", "compressed-flag", "trailer-flag", "two-messages", "none"] as const
  return fc.tuple(
    dice < 40 ? validMessage(method) : fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
    dice % 5 === 0 ? fc.constantFrom(...framings) : fc.constant("ok" as const)
  ).map(([message, framing]) => ({ ...base, kind: dice < 40 ? "valid-binary" : "random-bytes", message, framing }))
})

const framed = (rpc: RpcCase): Buffer => {
  switch (rpc.framing) {
    case "ok":
      return envelope(rpc.message)
    case "length-too-long":
      return envelope(rpc.message, 0, rpc.message.length + 10)
    case "length-too-short":
      return Buffer.concat([envelope(rpc.message, 0, Math.max(0, rpc.message.length - 1))])
    case "compressed-flag":
      return envelope(rpc.message, 1)
    case "trailer-flag":
      return envelope(rpc.message, 0x80)
    case "two-messages":
      return Buffer.concat([envelope(rpc.message), envelope(rpc.message)])
    case "none":
      return Buffer.alloc(0)
  }
}

const targets = isLongRun ? (["server", "embedded"] as const) : ([postgresAnswers ? "server" : "embedded"] as const)
const seed = Number(process.env["FUZZ_SEED"] ?? (isLongRun ? Date.now() % 1_000_000_000 : 20_261_122))

for (const kind of targets) {
  describe.skipIf(kind === "server" && !postgresAnswers)(
    `TodoService fuzzing over Connect, gRPC-Web and gRPC (${databaseLabel(kind)})`,
    () => {
      const shared = oneInstance(kind)

      const headersOf = (caller: RpcCase["caller"]): Record<string, string> =>
        caller === "none"
          ? {}
          : { authorization: `Bearer ${caller === "garbage" ? "garbage" : shared.principals.token[caller]}` }

      it(
        `${budget.todoFuzzMessages} random, mistyped, misframed and oversize messages each get a clean error or an answer, never a failure, and the server keeps answering`,
        async () => {
          const { server } = shared
          const cases = fc.sample(rpcCases, { numRuns: budget.todoFuzzMessages, seed })
          const http = rawClient(server.port, { connections: 8 })
          const h2 = grpcSession(server.port)
          const send = (rpc: RpcCase): Promise<RpcAnswer> => {
            const headers = headersOf(rpc.caller)
            switch (rpc.protocol) {
              case "connect-proto":
                return callConnect(http, rpc.method, rpc.message, "application/proto", headers)
              case "connect-json":
                return callConnect(http, rpc.method, rpc.message, "application/json", headers)
              case "grpc-web":
                return callGrpcWeb(http, rpc.method, framed(rpc), headers)
              case "grpc":
                // Oversize messages too, on the one session (docs/RELIABILITY.md, promise 2b).
                return h2.call(rpc.method, framed(rpc), headers)
            }
          }
          const byCode: Record<string, number> = {}
          const failures: Array<string> = []
          const latencies: Array<number> = []
          const started = performance.now()
          try {
            for (let i = 0; i < cases.length; i += 8) {
              await Promise.all(
                cases.slice(i, i + 8).map(async (rpc) => {
                  const answer = await Promise.race([
                    send(rpc),
                    new Promise<RpcAnswer>((resolve) =>
                      setTimeout(() => resolve({ code: "no answer within 10 s", message: "", ms: 10_000 }), 10_000)
                        .unref()
                    )
                  ]).catch((error: unknown): RpcAnswer => ({
                    code: "malformed",
                    message: `no answer: ${String(error)}`,
                    ms: 0
                  }))
                  const code = isLibraryDecodeError(answer) ? "internal (compressed without an encoding)" : answer.code
                  byCode[code] = (byCode[code] ?? 0) + 1
                  latencies.push(answer.ms)
                  const wrong = failureCodes.has(code) || (rpc.expect !== undefined && code !== rpc.expect)
                  if (wrong && failures.length < 30) {
                    failures.push(
                      `${rpc.protocol} ${rpc.method} [${rpc.kind}, framing ${rpc.framing}, ${rpc.caller}] → ${answer.code}: ${
                        answer.message.slice(0, 200)
                      }`
                    )
                  }
                })
              )
            }
          } finally {
            http.close()
            h2.close()
          }
          const durationMs = Math.round(performance.now() - started)
          const defectsLogged = server.logs().filter((line) => line.level === "ERROR")
          recordResult(`todo-fuzz-${kind}`, {
            seed,
            messages: cases.length,
            durationMs,
            byCode,
            failures: failures.length,
            defectsLogged: defectsLogged.length,
            latencyMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)) }
          })

          expect(failures).toEqual([])
          expect(h2.failures).toEqual([])
          expect(defectsLogged.map((line) => `${String(line.message)} ${line.cause ?? ""}`.slice(0, 300))).toEqual([])
          expect(server.child.exitCode).toBeNull()
          // Still answering, on each protocol.
          const client: RawClient = rawClient(server.port)
          const headers = headersOf("ADMIN")
          const list = Buffer.from(toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema, {})))
          expect((await callConnect(client, "ListTasks", list, "application/proto", headers)).code).toBe("ok")
          expect((await callGrpcWeb(client, "ListTasks", envelope(list), headers)).code).toBe("ok")
          client.close()
          const session = grpcSession(server.port)
          expect((await session.call("ListTasks", envelope(list), headers)).code).toBe("ok")
          session.close()
        },
        isLongRun ? 1_800_000 : 180_000
      )

      it(
        `${oversizeOnOneSession} oversize messages on one HTTP/2 session, over gRPC and over Connect, and from a stock gRPC client: each refused with resource_exhausted; the session survives and answers the next call`,
        async () => {
          const { server } = shared
          const headers = headersOf("ADMIN")
          const message = fc.sample(oversize, 1)[0]!
          const list = Buffer.from(toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema, {})))
          const session = grpcSession(server.port)
          const wrong: Array<string> = []
          const byProtocol: Record<string, Record<string, number>> = {}
          const count = (protocol: string, answer: RpcAnswer) => {
            const codes = (byProtocol[protocol] ??= {})
            codes[answer.code] = (codes[answer.code] ?? 0) + 1
            if (answer.code !== "resource_exhausted" && wrong.length < 10) {
              wrong.push(`${protocol}: ${answer.code} ${answer.message.slice(0, 200)}`)
            }
          }
          const started = performance.now()
          try {
            for (let i = 0; i < oversizeOnOneSession; i++) {
              count("gRPC", await session.call("CreateTask", envelope(message), headers))
              count("Connect", await session.connect("CreateTask", message, "application/proto", headers))
            }
            const after = {
              gRPC: await session.call("ListTasks", envelope(list), headers),
              Connect: await session.connect("ListTasks", list, "application/proto", headers)
            }
            expect(wrong).toEqual([])
            expect(session.failures).toEqual([])
            expect(after.gRPC.code).toBe("ok")
            expect(after.Connect.code).toBe("ok")
          } finally {
            session.close()
          }

          // connect-es's gRPC transport keeps one session for all its calls.
          const { baseUrl } = shared
          const transport = createGrpcTransport({
            baseUrl,
            sessionManager: new Http2SessionManager(baseUrl),
            interceptors: [(next) => (request) => {
              request.header.set("authorization", headers["authorization"]!)
              return next(request)
            }]
          })
          const client = createClient(TodoService, transport)
          const description = "d".repeat(oneMiB + 100)
          for (let i = 0; i < oversizeOnOneSession; i++) {
            const answer = await client.createTask({ title: "t", description }).then(
              (): RpcAnswer => ({ code: "ok", message: "", ms: 0 }),
              (error: unknown): RpcAnswer => {
                const failure = ConnectError.from(error)
                return { code: codeNames[failure.code] ?? "unknown", message: failure.rawMessage, ms: 0 }
              }
            )
            count("connect-es gRPC transport", answer)
          }
          expect(wrong).toEqual([])
          expect((await client.listTasks({})).tasks).toBeDefined()
          recordResult(`oversize-on-one-session-${kind}`, {
            messages: oversizeOnOneSession,
            byProtocol,
            durationMs: Math.round(performance.now() - started)
          })
        },
        120_000
      )
    }
  )
}
