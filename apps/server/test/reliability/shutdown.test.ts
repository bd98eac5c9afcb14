import * as Http2 from "node:http2"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import { messageOf } from "@club/test-support"
import { budget } from "./support/budget.ts"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import {
  type Exchange,
  pipelinedConnection,
  type PipelinedConnection,
  type PipelinedRequest
} from "./support/pipelining.ts"
import { type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"
import { recordResult } from "./support/results.ts"

/** Kept-alive HTTP/1.1 connections sending all the time, each with this many requests pipelined. */
const busyConnections = 64
const pipelineDepth = 2
/** Kept-alive connections idle at the signal: half send one more request during the grace period, half stay idle. */
const idleConnections = 8
/** HTTP/2 sessions sending all the time, each with this many streams open. */
const h2Sessions = 4
const h2Depth = 4
/** How long the load runs before the signal. */
const loadBeforeSignalMs = 2_000
/** The server's grace period for idle kept-alive connections (Listener.ts, `defaultShutdownGracePeriod`). */
const gracePeriodMs = 2_000
/** The bound on the whole shutdown, from the signal to the exit. */
const exitWithinMs = 10_000

interface Stream {
  readonly name: string
  status?: number
  /** Why it got no answer: refused by the server (REFUSED_STREAM, or not opened after GOAWAY), or another failure. */
  refused?: string
  failure?: string
}

/** An HTTP/2 session that keeps `h2Depth` session creates open until told to stop or refused. */
const h2Load = (
  port: number,
  nextCreate: () => { readonly name: string; readonly body: string },
  headers: Record<string, string>
) => {
  const session = Http2.connect(`http://127.0.0.1:${port}`)
  const failures: Array<string> = []
  const streams: Array<Stream> = []
  let goaway: number | undefined
  session.on("error", (error: NodeJS.ErrnoException) => failures.push(`session error ${error.code ?? error.message}`))
  session.on("goaway", (code) => {
    goaway = code
    if (code !== Http2.constants.NGHTTP2_NO_ERROR) failures.push(`GOAWAY with code ${code}`)
  })
  const one = () =>
    new Promise<void>((resolve) => {
      const { name, body } = nextCreate()
      const stream: Stream = { name }
      streams.push(stream)
      let request: Http2.ClientHttp2Stream
      try {
        request = session.request({ ":method": "POST", ":path": "/session/create", ...headers })
      } catch (error) {
        stream.refused = `not opened: ${(error as NodeJS.ErrnoException).code}`
        return resolve()
      }
      request.on("response", (answer) => (stream.status = Number(answer[":status"])))
      request.on("data", () => undefined)
      request.on("error", () => undefined)
      request.once("close", () => {
        if (stream.status === undefined) {
          if (request.rstCode === Http2.constants.NGHTTP2_REFUSED_STREAM) stream.refused = "REFUSED_STREAM"
          else stream.failure = `closed without an answer, code ${request.rstCode}`
        } else if (request.rstCode !== Http2.constants.NGHTTP2_NO_ERROR) {
          stream.failure = `answered ${stream.status}, then reset with code ${request.rstCode}`
        }
        resolve()
      })
      request.end(body)
    })
  const running = Array.from({ length: h2Depth }, async () => {
    while (goaway === undefined && !session.closed && !session.destroyed) await one()
  })
  return { streams, failures, done: Promise.all(running).then(() => session.close()), destroy: () => session.destroy() }
}

interface CycleResult {
  readonly busy: ReadonlyArray<PipelinedConnection>
  readonly idle: ReadonlyArray<PipelinedConnection>
  readonly h2: ReadonlyArray<ReturnType<typeof h2Load>>
  readonly exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null }
  readonly exitMs: number
  readonly signalledAt: number
  readonly logs: ReadonlyArray<string>
}

/** One server under saturating load, SIGTERM: what every request got, and how the server went. */
const signalUnderLoad = async (cycle: number): Promise<CycleResult> => {
  // At info, the server says how many requests it waits for. Its logins are just slow requests, dozens
  // at once for one name from one address: throttling would make some wait (each counts as a failure
  // until it succeeds), so it is set out of the way.
  const server = await deployment.start({
    LOG_LEVEL: "info",
    LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS: "1000",
    LOGIN_FREE_FAILURES_PER_ADDRESS: "1000"
  })
  principals ??= await setUpPrincipals(urlOf(server.port))
  const json = { "content-type": "application/json" }
  const coach = { ...json, authorization: `Bearer ${principals.token.COACH}` }
  let counter = 0
  const nextCreate = () => {
    const name = `Shutdown ${cycle}-${counter++}`
    return { name, body: JSON.stringify({ name, athleteIds: [principals!.athleteId], coachId: principals!.coachId }) }
  }
  const nextRequest = (): PipelinedRequest => {
    // Every eighth a login: a slow hash, so that requests are still running at the signal.
    if (counter++ % 8 === 0) {
      return {
        method: "POST",
        path: "/auth/login",
        headers: json,
        body: JSON.stringify({ name: "coach", password: principals!.password.COACH })
      }
    }
    return { method: "POST", path: "/session/create", headers: coach, body: nextCreate().body }
  }

  const idle = Array.from({ length: idleConnections }, () => pipelinedConnection(server.port))
  await Promise.all(idle.map((connection) => connection.send({ method: "GET", path: "/health/live" })))

  let stopped = false
  const busy = Array.from({ length: busyConnections }, () => pipelinedConnection(server.port))
  const busyLoops = busy.map((connection) =>
    Promise.all(Array.from({ length: pipelineDepth }, async () => {
      while (!stopped && connection.usable()) await connection.send(nextRequest())
    }))
  )
  const h2 = Array.from({ length: h2Sessions }, () => h2Load(server.port, nextCreate, { ...coach }))

  await sleep(loadBeforeSignalMs)
  const signalledAt = performance.now()
  server.child.kill("SIGTERM")
  const exited = server.exited.then((exit) => ({ exit, at: performance.now() }))

  // Kept-alive connections idle at the signal: half send one more request within the grace period.
  await sleep(gracePeriodMs / 4)
  await Promise.all(idle.slice(0, idleConnections / 2).map((connection) => connection.send(nextRequest())))

  const { exit, at } = await exited
  stopped = true
  await Promise.all([...busyLoops, ...h2.map((load) => load.done)])
  await Promise.all([...busy, ...idle].map((connection) => Promise.race([connection.closed, sleep(2_000)])))
  for (const connection of [...busy, ...idle]) connection.destroy()
  for (const load of h2) load.destroy()
  return { busy, idle, h2, exit, exitMs: at - signalledAt, signalledAt, logs: server.logs().map(messageOf) }
}

const isCreate = (exchange: Exchange) => exchange.request.path === "/session/create"
const nameOf = (exchange: Exchange) => (JSON.parse(exchange.request.body!) as { name: string }).name

let deployment: Deployment
let principals: Principals | undefined
const measured: Array<Record<string, unknown>> = []
/** The sessions whose create was answered 201, and those whose create got no answer. */
const created: Array<string> = []
const unanswered: Array<string> = []

describe(`SIGTERM under saturating load (${postgresAnswers ? "PostgreSQL server" : "embedded database"})`, () => {
  beforeAll(async () => {
    // On disk, so that the next instance sees what this one stored.
    deployment = await deploy(postgresAnswers ? "server" : "embedded", { dataOnDisk: true })
  })
  afterAll(() => deployment?.release())

  it(
    `${busyConnections} kept-alive connections pipelining ${pipelineDepth} requests each, ${h2Sessions} HTTP/2 sessions and ${idleConnections} idle connections: every request sent is answered or meets a clean close (never a reset), requests already received complete, the server exits 0 (${budget.shutdownCycles} time(s))`,
    async () => {
      try {
        for (let cycle = 0; cycle < budget.shutdownCycles; cycle++) {
          const result = await signalUnderLoad(cycle)
          const http1 = [...result.busy, ...result.idle]
          const exchanges = http1.flatMap((connection) => connection.exchanges)
          const afterSignal = exchanges.filter((exchange) =>
            exchange.answer !== undefined && exchange.answer.at > result.signalledAt
          )
          const streams = result.h2.flatMap((load) => load.streams)
          const drainLine = result.logs.find((message) => message.startsWith("Shutting down"))
          const running = Number(/waiting for (\d+) running request/u.exec(drainLine ?? "")?.[1] ?? NaN)
          const numbers = {
            cycle,
            runningAtSignal: running,
            http1Requests: exchanges.length,
            answered: exchanges.filter((exchange) => exchange.answer !== undefined).length,
            answeredAfterSignal: afterSignal.length,
            answeredWithConnectionClose: afterSignal.filter((exchange) =>
              exchange.answer!.headers["connection"] === "close"
            ).length,
            busySentNothingAfterSignal: result.busy.filter((connection) =>
              connection.exchanges.every((exchange) => exchange.sentAt <= result.signalledAt)
            ).length,
            sentThenCleanClose: exchanges.filter((exchange) =>
              exchange.written && exchange.unanswered === "ended"
            ).length,
            notSent: exchanges.filter((exchange) => exchange.unanswered === "not sent").length,
            socketErrors: http1.flatMap((connection) => connection.errors),
            h2Streams: streams.length,
            h2Answered: streams.filter((stream) => stream.status !== undefined).length,
            h2Refused: streams.filter((stream) => stream.refused !== undefined).length,
            h2Failures: [
              ...streams.flatMap((stream) => stream.failure === undefined ? [] : [`${stream.name}: ${stream.failure}`]),
              ...result.h2.flatMap((load) => load.failures)
            ],
            exit: result.exit,
            exitMs: Math.round(result.exitMs),
            drainLine
          }
          measured.push(numbers)

          for (const exchange of exchanges.filter(isCreate)) {
            if (exchange.answer?.status === 201) created.push(nameOf(exchange))
            else if (exchange.answer === undefined) unanswered.push(nameOf(exchange))
          }
          for (const stream of streams) {
            if (stream.status === 201) created.push(stream.name)
            else if (stream.status === undefined) unanswered.push(stream.name)
          }

          // Saturated: requests were running at the signal, and more kept coming after it.
          expect(running).toBeGreaterThan(0)
          expect(numbers.answeredAfterSignal).toBeGreaterThan(busyConnections)
          // Never a reset: no socket error on any connection, and every request sent got a whole answer
          // or met the server's clean close (a FIN) before it was read.
          expect(numbers.socketErrors).toEqual([])
          const lost = exchanges.filter((exchange) =>
            exchange.answer === undefined && exchange.unanswered !== "ended" && exchange.unanswered !== "not sent"
          )
          expect(lost.map((exchange) => `${exchange.request.path}: ${exchange.unanswered}`)).toEqual([])
          // Every answer is the request's normal answer, before and after the signal.
          const wrong = exchanges.filter((exchange) =>
            exchange.answer !== undefined && exchange.answer.status !== (isCreate(exchange) ? 201 : 200)
          )
          expect(
            wrong.map((exchange) =>
              `${exchange.request.path}: ${exchange.answer!.status} ${exchange.answer!.body.slice(0, 200)}`
            )
          ).toEqual([])
          // Each connection that was still sending got its last answer with `Connection: close`, then a
          // clean close. One whose requests were all sent before the signal and all still running when the
          // grace period ended (a slow machine) sent nothing after it: it is closed cleanly once answered.
          for (const connection of result.busy) {
            const answered = connection.exchanges.filter((exchange) => exchange.answer !== undefined)
            if (answered.some((exchange) => exchange.sentAt > result.signalledAt)) {
              expect(answered.at(-1)?.answer?.headers["connection"]).toBe("close")
            }
            expect(connection.endedAt()).toBeDefined()
          }
          // Idle connections: a request within the grace period is answered (with `Connection: close`); the others are closed cleanly.
          for (const connection of result.idle.slice(0, idleConnections / 2)) {
            expect(connection.exchanges.at(-1)?.answer?.headers["connection"]).toBe("close")
          }
          for (const connection of result.idle) expect(connection.endedAt()).toBeGreaterThan(result.signalledAt)
          // HTTP/2: GOAWAY; each stream answered 201, or refused before it was read.
          expect(numbers.h2Failures).toEqual([])
          expect(streams.filter((stream) => stream.status !== undefined && stream.status !== 201)).toEqual([])
          // Within the bound, without cutting anything, exit code 0.
          expect(result.logs.filter((message) => message.includes("are cut"))).toEqual([])
          expect(result.exitMs).toBeLessThan(exitWithinMs)
          expect(result.exit).toEqual({ code: 0, signal: null })
        }
      } finally {
        recordResult("sigterm", { busyConnections, pipelineDepth, h2Sessions, idleConnections, cycles: measured })
      }
    },
    60_000 + budget.shutdownCycles * 30_000
  )

  it("the sessions whose create was answered 201 are stored, and those that got no answer are not: the next instance lists exactly the first", async () => {
    const next = await deployment.start()
    const sessions = (await principals!.as("COACH", urlOf(next.port)).get("/session/all")).body as Array<
      { name: string }
    >
    const stored = new Set(sessions.map((session) => session.name))
    expect(created.length).toBeGreaterThan(0)
    expect(created.filter((name) => !stored.has(name))).toEqual([])
    expect(unanswered.filter((name) => stored.has(name))).toEqual([])
  })
})
