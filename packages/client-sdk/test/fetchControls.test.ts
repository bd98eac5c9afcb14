// The light client (`@club/client-sdk/fetch`) held to the Promise face's own tests of controls.test.ts: the same
// fake server and expectations, its REST calls only (the light client has no TodoService and no
// local check of arguments).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClubRestClient as ClubClient, sessionId } from "../src/fetch.ts"
import { failure } from "./failure.ts"
import { json, problem, startFakeServer } from "./fakeServer.ts"

const jwt = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString("base64url")}.sig`
const token = jwt(Math.floor(Date.now() / 1000) + 3600)

const session = {
  id: 7,
  name: "Intervals",
  isRecurrent: false,
  creneau: null,
  duree: 60,
  groupe: null,
  coachId: null,
  athleteIds: [],
  activiteIds: []
}
const unavailable = (retryAfter?: string) =>
  problem(
    503,
    "Service Unavailable",
    "The database is unreachable; retry later",
    {},
    retryAfter === undefined ? {} : { "retry-after": retryAfter }
  )

let server: Awaited<ReturnType<typeof startFakeServer>>

beforeAll(async () => {
  server = await startFakeServer((request, attempt) => {
    switch (`${request.method} ${request.url}`) {
      case "GET /session/1":
        return { status: 200, hang: true }
      case "GET /session/2":
        return attempt === 1 ? unavailable("1") : json(200, { ...session, id: 2 })
      case "GET /session/3":
        return attempt <= 2 ? unavailable() : json(200, { ...session, id: 3 })
      case "GET /session/4":
        return problem(429, "Too Many Requests", "Slow down", { retryAfter: 300 }, { "retry-after": "300" })
      case "GET /session/7":
        return json(200, session, { "x-request-id": "req-7" })
      case "POST /session/create":
        return unavailable("1")
      case "POST /coaches/create":
        return attempt === 1 ? unavailable("1") : json(201, { id: 9, name: request.headers["idempotency-key"] ?? null })
    }
    return undefined
  })
})

afterAll(() => server.close())

const client = (options: Partial<Parameters<typeof ClubClient.fromToken>[0]> = {}) =>
  ClubClient.fromToken({ baseUrl: server.baseUrl, token, retry: { baseDelayMs: 50 }, ...options })

describe("what a caller controls, per call and per client", () => {
  it("abort: a call whose signal is aborted stops at once, on the REST calls", async () => {
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 100)
    const error = await failure(client().sessions.get({ params: { id: sessionId(1) } }, { signal: controller.signal }))
    expect(error.tag).toBe("Aborted")
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("timeout: a call to a server that never answers fails with Timeout, per call or by the client's default", async () => {
    const started = Date.now()
    expect(await failure(client().sessions.get({ params: { id: sessionId(1) } }, { timeoutMs: 200 }))).toMatchObject({
      tag: "Timeout",
      message: "The call took longer than 200 ms and was abandoned"
    })
    expect((await failure(client({ timeoutMs: 200 }).sessions.get({ params: { id: sessionId(1) } }))).tag).toBe(
      "Timeout"
    )
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it("retry: a read answered 503 with Retry-After is sent again after that delay, and succeeds", async () => {
    const started = Date.now()
    expect((await client().sessions.get({ params: { id: sessionId(2) } })).id).toBe(2)
    expect(server.count("GET", "/session/2")).toBe(2)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
  })

  it("retry: without Retry-After, a doubling delay; at most maxAttempts in all", async () => {
    expect((await client().sessions.get({ params: { id: sessionId(3) } })).id).toBe(3)
    expect(server.count("GET", "/session/3")).toBe(3)
  })

  it("no retry of a write: a POST answered 503 is sent once, and its error says when to come back", async () => {
    const error = await failure(client().sessions.create({ payload: { name: "Sprints" } }))
    expect(error).toMatchObject({ tag: "Unavailable", status: 503, retryAfter: 1 })
    expect(server.count("POST", "/session/create")).toBe(1)
  })

  it("a write with an idempotency key is sent with it, and retried", async () => {
    const created = await client().coaches.create({ payload: { name: "Claire" } }, {
      idempotencyKey: "create-claire-1"
    })
    expect(created).toEqual({ id: 9, name: "create-claire-1" })
    expect(server.count("POST", "/coaches/create")).toBe(2)
  })

  it("a Retry-After beyond the longest wait ends the retries; the error carries it", async () => {
    const error = await failure(client().sessions.get({ params: { id: sessionId(4) } }))
    // The contract declares no 429 for this endpoint: an undeclared answer, still with its status and Retry-After.
    expect(error).toMatchObject({ tag: "UnexpectedResponse", status: 429, retryAfter: 300 })
    expect(server.count("GET", "/session/4")).toBe(1)
  })

  it("a custom fetch, hooks, and headers of the client and of the call", async () => {
    const seen: Array<string> = []
    const club = client({
      fetch: (input, init) => {
        seen.push("fetch")
        return globalThis.fetch(input, init)
      },
      headers: { "x-client": "club-web" },
      hooks: {
        onRequest: (request) => {
          seen.push(`request ${new URL(request.url).pathname}`)
          request.headers.set("x-hooked", "yes")
        },
        onResponse: (response) => void seen.push(`response ${response.status} ${response.headers.get("x-request-id")}`)
      }
    })
    await club.sessions.get({ params: { id: sessionId(7) } }, { headers: { "x-call": "one" } })
    expect(seen).toEqual(["request /session/7", "fetch", "response 200 req-7"])
    const sent = server.requests.at(-1)!.headers
    expect([sent["x-client"], sent["x-call"], sent["x-hooked"]]).toEqual(["club-web", "one", "yes"])
  })
})
