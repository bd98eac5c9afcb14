import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import type { ServerProcess } from "@club/test-support"
import { budget } from "./support/budget.ts"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import { type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"
import { rawClient, type RawClient, type RawReply } from "./support/rawHttp.ts"
import { percentile, recordResult } from "./support/results.ts"
import { callConnect, envelope, grpcSession, type RpcAnswer } from "./support/rpcWire.ts"

const unavailableDetail = "The database is unreachable; retry later"
const outageMs = 3_000
/** How long the service may take to serve again once the database is back. */
const recoveryBoundMs = 10_000

interface Sample {
  readonly kind: "rest-read" | "rest-write" | "connect" | "grpc" | "ready"
  readonly startedAt: number
  readonly endedAt: number
  readonly status: number | string
  readonly reply?: RawReply
  readonly rpc?: RpcAnswer
  readonly error?: string
}

/** Requests of every kind, by `workers` loops, until `stop` resolves: what the service sees from its clients during an outage. */
const load = async (
  client: RawClient,
  port: number,
  principals: Principals,
  cycle: number,
  workers: number,
  stopped: () => boolean
) => {
  const samples: Array<Sample> = []
  const grpc = grpcSession(port)
  const rest =
    (kind: Sample["kind"], method: string, path: string, token: string | null, body?: string) => async () => {
      const startedAt = performance.now()
      const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` }
      if (body !== undefined) headers["content-type"] = "application/json"
      try {
        const reply = await client.send({ method, path, headers, ...(body === undefined ? {} : { body }) })
        samples.push({ kind, startedAt, endedAt: performance.now(), status: reply.status, reply })
      } catch (error) {
        samples.push({ kind, startedAt, endedAt: performance.now(), status: "no answer", error: String(error) })
      }
    }
  const rpc = (kind: "connect" | "grpc") => async () => {
    const startedAt = performance.now()
    const headers = { authorization: `Bearer ${principals.token.ADMIN}` }
    const answer = kind === "connect"
      ? await callConnect(client, "ListTasks", "{}", "application/json", headers)
      : await grpc.call("ListTasks", envelope(Buffer.alloc(0)), headers)
    samples.push({ kind, startedAt, endedAt: performance.now(), status: answer.code, rpc: answer })
  }
  let created = 0
  const calls = [
    rest("rest-read", "GET", "/session/all", principals.token.COACH),
    () =>
      rest(
        "rest-write",
        "POST",
        "/athletes/create",
        principals.token.ADMIN,
        JSON.stringify({ name: `Outage athlete ${cycle}-${++created}` })
      )(),
    rest("rest-read", "POST", "/athletes/all", principals.token.ADMIN),
    rpc("connect"),
    rpc("grpc"),
    rest("ready", "GET", "/health/ready", null)
  ]
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; !stopped(); i++) {
      await calls[i % calls.length]!()
      await sleep(5)
    }
  }))
  grpc.close()
  return samples
}

const isUnavailableProblem = (sample: Sample) => {
  const reply = sample.reply
  if (reply === undefined || reply.status !== 503 || reply.contentType !== "application/problem+json") return false
  const body = JSON.parse(reply.text) as Record<string, unknown>
  return body["title"] === "Service Unavailable" && body["status"] === 503 && typeof body["detail"] === "string" &&
    (sample.kind === "ready" ? body["detail"] === "Database unreachable" : body["detail"] === unavailableDetail)
}

const isAnswered = (sample: Sample) =>
  sample.rpc !== undefined
    ? sample.rpc.code === "ok"
    : typeof sample.status === "number" && sample.status >= 200 && sample.status < 300

describe.skipIf(!postgresAnswers)(
  "PostgreSQL unreachable under load (through a proxy that is stopped, then restarted)",
  () => {
    let deployment: Deployment
    let server: ServerProcess
    let principals: Principals

    beforeAll(async () => {
      deployment = await deploy("server")
      server = await deployment.start()
      principals = await setUpPrincipals(urlOf(server.port))
    })
    afterAll(() => deployment?.release())

    it(
      `fails fast with 503 problem+json (REST) and unavailable (Connect, gRPC) while it is away, readiness turns false, and serves again by itself when it returns (${budget.outageCycles} outage(s) of ${
        outageMs / 1000
      } s)`,
      async () => {
        const client = rawClient(server.port, { connections: 8 })
        const cycles: Array<Record<string, unknown>> = []
        /** The athletes whose create was answered 201, across the cycles. */
        const acknowledged: Array<string> = []
        let storedCreates = 0
        try {
          for (let cycle = 0; cycle < budget.outageCycles; cycle++) {
            let stop = false
            const running = load(client, server.port, principals, cycle, 8, () => stop)
            await sleep(1_000)
            const cutAt = performance.now()
            await deployment.proxy!.stop()
            await sleep(outageMs)
            const backAt = performance.now()
            await deployment.proxy!.restart()
            // Keeps the load on until the service has answered for 2 seconds again.
            let recoveredAt: number | undefined
            while (performance.now() - backAt < recoveryBoundMs + 2_000) {
              await sleep(100)
              if (recoveredAt !== undefined && performance.now() - recoveredAt > 2_000) break
              const answered = (await client.send({ method: "GET", path: "/health/ready" })).status === 200
              if (answered && recoveredAt === undefined) recoveredAt = performance.now()
            }
            stop = true
            const samples = await running

            const before = samples.filter((s) => s.endedAt < cutAt)
            // Requests begun after the cut (a few ms of grace for the proxy to close) and ended before it came back.
            const during = samples.filter((s) => s.startedAt > cutAt + 50 && s.endedAt < backAt)
            const after = samples.filter((s) => recoveredAt !== undefined && s.startedAt > recoveredAt + 500)
            for (const s of samples) {
              if (s.kind === "rest-write" && s.status === 201) {
                acknowledged.push(
                  (JSON.parse(s.reply!.text) as { name: string }).name
                )
              }
            }
            const serverErrors = samples.filter((s) =>
              s.status === 500 || s.status === "internal" || s.status === "no answer" || s.status === "malformed"
            )
            const duringLatencies = during.map((s) => s.endedAt - s.startedAt)
            cycles.push({
              requests: samples.length,
              before: before.length,
              during: during.length,
              after: after.length,
              duringStatuses: Object.fromEntries(
                [...new Set(during.map((s) => `${s.kind} ${s.status}`))].map((k) => [
                  k,
                  during.filter((s) => `${s.kind} ${s.status}` === k).length
                ])
              ),
              failFastMs: {
                p50: Math.round(percentile(duringLatencies, 50)),
                p99: Math.round(percentile(duringLatencies, 99)),
                max: Math.round(percentile(duringLatencies, 100))
              },
              recoveryMs: recoveredAt === undefined ? null : Math.round(recoveredAt - backAt),
              serverErrors: serverErrors.length
            })

            expect(before.filter((s) => !isAnswered(s)).map((s) => `${s.kind} ${s.status}`), "before the outage")
              .toEqual([])
            expect(during.length).toBeGreaterThan(50)
            // Every request during the outage: REST a 503 problem naming the cause, Connect and gRPC `unavailable`.
            const wrong = during.filter((s) =>
              s.rpc !== undefined ? s.rpc.code !== "unavailable" : !isUnavailableProblem(s)
            )
            expect(
              wrong.map((s) => `${s.kind} ${s.status} ${s.reply?.text.slice(0, 200) ?? s.rpc?.message ?? s.error}`)
            ).toEqual([])
            expect(during.filter((s) => s.rpc !== undefined).every((s) => s.rpc!.message === unavailableDetail)).toBe(
              true
            )
            // Fast: the refused connection is seen at once, no request waits for a timeout.
            expect(percentile(duringLatencies, 99)).toBeLessThan(1_000)
            // Never a 500 or a cut connection, even for the requests caught by the cut.
            expect(
              serverErrors.map((s) =>
                `${s.kind} ${s.status} ${s.error ?? s.reply?.text.slice(0, 200) ?? s.rpc?.message}`
              )
            ).toEqual([])
            // Back by itself, and everything answered once it is.
            expect(recoveredAt, "ready again").toBeDefined()
            expect(recoveredAt! - backAt).toBeLessThan(recoveryBoundMs)
            expect(after.length).toBeGreaterThan(20)
            expect(after.filter((s) => !isAnswered(s)).map((s) => `${s.kind} ${s.status}`), "after recovery").toEqual(
              []
            )
          }
          // Every acknowledged create is stored.
          const stored = new Set(
            (await deployment.sql!.query<{ name: string }>(
              "SELECT name FROM athletes WHERE name LIKE 'Outage athlete %'"
            )).map((row) => row.name)
          )
          storedCreates = stored.size
          expect(acknowledged.filter((name) => !stored.has(name))).toEqual([])
          expect(server.child.exitCode).toBeNull()
          expect(server.logs().filter((line) => line.level === "ERROR").map((line) => String(line.message))).toEqual([])
        } finally {
          client.close()
          recordResult("database-outage", { outageMs, acknowledgedCreates: acknowledged.length, storedCreates, cycles })
        }
      },
      60_000 + budget.outageCycles * 30_000
    )
  }
)
