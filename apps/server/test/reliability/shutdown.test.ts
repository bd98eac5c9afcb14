import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import { messageOf } from "../support/ServerProcess.ts"
import { budget } from "./support/budget.ts"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import { type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"
import { rawClient } from "./support/rawHttp.ts"
import { recordResult } from "./support/results.ts"

/** Requests still running when the signal comes: logins (a slow hash each) and session creates. */
const inFlight = 48
const logins = 12

/** One server, requests running, SIGTERM: what each request got, and how the server went. */
const signalUnderLoad = async (cycle: number) => {
  // At info, the server says how many requests it waits for.
  const server = await deployment.start({ LOG_LEVEL: "info" })
  principals ??= await setUpPrincipals(urlOf(server.port))
  const client = rawClient(server.port, { connections: inFlight })
  const json = { "content-type": "application/json" }
  const requests = Array.from({ length: inFlight }, (_, i) =>
    i % (inFlight / logins) === 0
      ? { method: "POST", path: "/auth/login", headers: json, body: JSON.stringify({ name: "coach", password: principals!.password.COACH }) }
      : {
        method: "POST",
        path: "/session/create",
        headers: { ...json, authorization: `Bearer ${principals!.token.COACH}` },
        body: JSON.stringify({ name: `Shutdown ${cycle}-${i}`, athleteIds: [principals!.athleteId], coachId: principals!.coachId })
      })
  let signalledAt = 0
  const answers = requests.map((request) =>
    client.send(request).then(
      (reply) => ({ status: reply.status, after: signalledAt > 0 }),
      (error: unknown) => ({ status: `no answer: ${String(error)}`, after: true })
    ))
  // Sent, received and being served (the logins take a slow hash each, so some still run at the signal).
  await sleep(400)
  signalledAt = performance.now()
  server.child.kill("SIGTERM")
  const results = await Promise.all(answers)
  results.forEach((result, i) => {
    if (result.status === 201) created.push((JSON.parse(requests[i]!.body) as { name: string }).name)
  })
  const exit = await server.exited
  client.close()

  const answeredAfterSignal = results.filter((result) => result.after).length
  const drainLine = server.logs().map(messageOf).find((message) => message.startsWith("Shutting down"))
  const running = Number(/waiting for (\d+) running request/u.exec(drainLine ?? "")?.[1] ?? NaN)
  const answeredBefore = inFlight - answeredAfterSignal
  const completed = results.filter((result, i) => result.status === (requests[i]!.path === "/auth/login" ? 200 : 201)).length
  const reset = results.filter((result) => typeof result.status === "string").length
  signalled.push({ answeredBefore, runningAtSignal: running, completed, reset, drainLine, exit })
  // Requests were still running at the signal (else nothing below would be shown), and each of them completed.
  expect(running).toBeGreaterThan(0)
  expect(completed).toBeGreaterThanOrEqual(answeredBefore + running)
  // Any other answer than the expected one is a reset of a request the server had not read yet (docs/RELIABILITY.md).
  expect(results.filter((result) => typeof result.status === "number").length).toBe(completed)
  expect(reset).toBeLessThanOrEqual(inFlight - answeredBefore - running)
  expect(exit).toEqual({ code: 0, signal: null })
}

let deployment: Deployment
let principals: Principals | undefined
const signalled: Array<Record<string, unknown>> = []
/** The sessions whose create was answered 201. */
const created: Array<string> = []

describe(`SIGTERM under load (${postgresAnswers ? "PostgreSQL server" : "embedded database"})`, () => {
  beforeAll(async () => {
    deployment = await deploy(postgresAnswers ? "server" : "embedded")
  })
  afterAll(() => deployment?.release())

  it(`of ${inFlight} requests sent, every one the server was serving at the signal completes; then the server exits 0 (${budget.shutdownCycles} time(s))`, async () => {
    try {
      for (let cycle = 0; cycle < budget.shutdownCycles; cycle++) await signalUnderLoad(cycle)
    } finally {
      recordResult("sigterm", { inFlight, cycles: signalled })
    }
  }, 60_000 + budget.shutdownCycles * 30_000)

  it("the sessions whose create completed are stored: the next instance lists them", async () => {
    const next = await deployment.start()
    const sessions = (await principals!.as("COACH", urlOf(next.port)).get("/session/all")).body as Array<{ name: string }>
    const stored = new Set(sessions.map((session) => session.name))
    expect(created.filter((name) => !stored.has(name))).toEqual([])
  })
})
