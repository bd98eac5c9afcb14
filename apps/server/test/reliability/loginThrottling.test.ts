import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import type { ServerProcess } from "@club/test-support"
import { adminName, adminPassword, deploy, type Deployment } from "./support/Deployment.ts"
import { rawClient, type RawClient, type RawReply } from "./support/rawHttp.ts"
import { recordResult } from "./support/results.ts"

/**
 * CONTRACT.md: repeated failures are slowed (429 with Retry-After), never in a way that lets
 * another client lock out a user who knows the password. Small delays keep the test short: 2
 * failures free per name at an address, then 1 s, 2 s, 4 s, and 4 s after that. Behind the trusted
 * proxy 127.0.0.1, X-Forwarded-For tells the clients apart. (Linux routes all of 127.0.0.0/8 to
 * the loopback: each 127.0.0.x below is a client of its own.)
 */
const throttling = {
  LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS: "2",
  LOGIN_FREE_FAILURES_PER_ADDRESS: "100",
  LOGIN_FIRST_DELAY_SECONDS: "1",
  LOGIN_MAX_DELAY_SECONDS: "4",
  TRUSTED_PROXIES: "127.0.0.1"
}
/**
 * The same, with every wait a minute long: for the tests that ask who waits, not how long, so that
 * a slow machine (a login hashes its password) cannot see a wait end between two requests.
 */
const patient = { ...throttling, LOGIN_FIRST_DELAY_SECONDS: "60", LOGIN_MAX_DELAY_SECONDS: "60" }

describe("Login throttling (embedded database)", () => {
  let deployment: Deployment
  let server: ServerProcess
  let patientServer: ServerProcess
  const clients: Array<RawClient> = []
  const numbers: Record<string, unknown> = {}

  /** A client sending from `localAddress`, with `forwardedFor` as its X-Forwarded-For when given. */
  const clientAt = (localAddress: string, port = server.port) => {
    const client = rawClient(port, { localAddress })
    clients.push(client)
    return (name: string, password: string, forwardedFor?: string) =>
      client.send({
        method: "POST",
        path: "/auth/login",
        headers: {
          "content-type": "application/json",
          ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
        },
        body: JSON.stringify({ name, password })
      })
  }
  const retryAfter = (reply: RawReply) => {
    expect(reply.status, reply.text).toBe(429)
    expect(reply.contentType).toBe("application/problem+json")
    return Number(reply.headers["retry-after"])
  }
  /** Refused with 429, to wait (on the patient server, at most its minute). */
  const waits = (reply: RawReply) => {
    const seconds = retryAfter(reply)
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(60)
  }

  beforeAll(async () => {
    deployment = await deploy("embedded")
    ;[server, patientServer] = await Promise.all([deployment.start(throttling), deployment.start(patient)])
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    recordResult("loginThrottling", numbers)
    await deployment?.release()
  })

  it("an attacker failing for the admin's name waits 1 s, 2 s, 4 s, then 4 s each time (may try again once each wait is over); the admin at another address is never made to wait", async () => {
    const attacker = clientAt("127.0.0.2")
    const admin = clientAt("127.0.0.5")
    expect((await attacker(adminName, "guess-1")).status).toBe(401)
    expect((await attacker(adminName, "guess-2")).status).toBe(401)
    const waits: Array<number> = []
    for (let i = 3; i <= 6; i++) {
      const wait = retryAfter(await attacker(adminName, `guess-${i}`))
      waits.push(wait)
      // Even the right password, from the attacker's address, waits.
      expect(retryAfter(await attacker(adminName, adminPassword))).toBeLessThanOrEqual(wait)
      expect((await admin(adminName, adminPassword)).status).toBe(200)
      await sleep(wait * 1_000)
      expect((await attacker(adminName, `guess-${i}`)).status).toBe(401)
    }
    expect(waits).toEqual([1, 2, 4, 4])
    numbers["attackerRetryAfterSeconds"] = waits
  })

  it("behind the trusted proxy 127.0.0.1, X-Forwarded-For 203.0.113.7 and 203.0.113.8 are two clients: the first waiting does not make the second wait", async () => {
    const proxy = clientAt("127.0.0.1", patientServer.port)
    expect((await proxy(adminName, "wrong-1", "203.0.113.7")).status).toBe(401)
    expect((await proxy(adminName, "wrong-2", "203.0.113.7")).status).toBe(401)
    waits(await proxy(adminName, adminPassword, "203.0.113.7"))
    // Another client behind the proxy has its own free failures, and logs in.
    expect((await proxy(adminName, "wrong-1", "203.0.113.8")).status).toBe(401)
    expect((await proxy(adminName, adminPassword, "203.0.113.8")).status).toBe(200)
    // What the client wrote itself (left of what the proxy appended) is not believed.
    waits(await proxy(adminName, adminPassword, "203.0.113.8, 203.0.113.7"))
  })

  it("from a peer that is not a trusted proxy (127.0.0.3), X-Forwarded-For is ignored: another value does not escape the wait", async () => {
    const untrusted = clientAt("127.0.0.3", patientServer.port)
    expect((await untrusted(adminName, "wrong-1", "203.0.113.9")).status).toBe(401)
    expect((await untrusted(adminName, "wrong-2", "203.0.113.10")).status).toBe(401)
    waits(await untrusted(adminName, adminPassword, "203.0.113.11"))
    waits(await untrusted(adminName, adminPassword))
  })

  it("on a server bound to :: (IPv4 peers seen as ::ffff:127.0.0.x), 127.0.0.1 is still the trusted proxy and 127.0.0.3 still not", async () => {
    const dualStack = await deployment.start({ ...patient, HOST: "::" })
    const proxy = clientAt("127.0.0.1", dualStack.port)
    const untrusted = clientAt("127.0.0.3", dualStack.port)
    expect((await proxy(adminName, "wrong-1", "203.0.113.7")).status).toBe(401)
    expect((await proxy(adminName, "wrong-2", "203.0.113.7")).status).toBe(401)
    waits(await proxy(adminName, adminPassword, "203.0.113.7"))
    expect((await proxy(adminName, adminPassword, "203.0.113.8")).status).toBe(200)
    expect((await untrusted(adminName, "wrong-1", "203.0.113.9")).status).toBe(401)
    expect((await untrusted(adminName, "wrong-2", "203.0.113.10")).status).toBe(401)
    waits(await untrusted(adminName, adminPassword, "203.0.113.11"))
  })

  it("logins with the right password whose clients hang up while it is checked never make that client wait", async () => {
    // A client that closes its connection mid-login (a phone losing its network, a load generator's
    // end of run): each attempt is judged anyway, and the right password counts no failure.
    const abandoned = (delayMs: number) =>
      new Promise<void>((resolve) => {
        const request = httpRequest({
          host: "127.0.0.1",
          localAddress: "127.0.0.6",
          port: patientServer.port,
          method: "POST",
          path: "/auth/login",
          headers: { "content-type": "application/json" }
        })
        request.on("error", () => resolve())
        request.on("close", () => resolve())
        request.end(JSON.stringify({ name: adminName, password: adminPassword }))
        setTimeout(() => request.destroy(), delayMs)
      })
    // Hung up at several points of the check (the server's hash takes tens of milliseconds), more
    // often than the failures a name may have at an address (2 here).
    for (const delayMs of [5, 10, 20, 30, 40, 60]) await abandoned(delayMs)
    // Until judged, an admitted attempt counts as a failure: the client may wait while they finish
    // (a refused attempt counts nothing), never after. Hung-up attempts that stayed failures would
    // make it wait the patient server's minute.
    const client = clientAt("127.0.0.6", patientServer.port)
    const deadline = Date.now() + 15_000
    let reply = await client(adminName, adminPassword)
    while (reply.status === 429 && Date.now() < deadline) {
      await sleep(250)
      reply = await client(adminName, adminPassword)
    }
    expect(reply.status, reply.text).toBe(200)
  })

  it("a TRUSTED_PROXIES entry that is no address or range stops the start-up, naming it", async () => {
    const refused = await deployment.spawn({ ...throttling, TRUSTED_PROXIES: "127.0.0.1, proxy.example" })
    const exit = await refused.exited
    expect(exit.code).not.toBe(0)
    expect(refused.output.join("\n")).toMatch(/TRUSTED_PROXIES: invalid IP address: proxy\.example/u)
  })
})
