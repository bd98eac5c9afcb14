import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { ClubApiClient, coachId, sessionId, TOKEN_EXPIRED_MESSAGE, withCallOptions } from "../src/index.ts"
import { json, problem, startFakeServer, text } from "./fakeServer.ts"

const jwt = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString("base64url")}.sig`
const now = () => Math.floor(Date.now() / 1000)

let server: Awaited<ReturnType<typeof startFakeServer>>

beforeAll(async () => {
  server = await startFakeServer((request) => {
    switch (`${request.method} ${request.url}`) {
      case "POST /auth/login":
        return json(200, {
          token: jwt(now() + 60),
          tokenType: "Bearer",
          expiresIn: 60,
          user: { id: 3, name: "ann", email: null, role: "ATHLETE", coachId: null, athleteId: 3, adminId: null }
        })
      case "GET /session/999":
        return text(404, "Session not found with id 999")
      case "GET /coaches/5":
        return problem(404, "Not Found", "Coach not found")
      case "POST /todo.TodoService/CreateTask":
        return json(400, { code: "invalid_argument", message: "title must not be blank" })
      case "GET /session/1":
        return { status: 200, hang: true }
    }
    return undefined
  })
})

afterAll(() => server.close())

describe("the Effect face", () => {
  it.live("logs in and types every declared error by its tag", () =>
    Effect.gen(function*() {
      const club = yield* ClubApiClient
      assert.strictEqual(club.user?.name, "ann")

      const missing = yield* club.sessions.get({ params: { id: sessionId(999) } }).pipe(Effect.flip)
      assert.strictEqual(missing._tag, "SessionNotFoundText")
      if (missing._tag === "SessionNotFoundText") assert.strictEqual(missing.message, "Session not found with id 999")

      const coach = yield* club.coaches.get({ params: { id: coachId(5) } }).pipe(Effect.flip)
      assert.strictEqual(coach._tag, "NotFound")
      if (coach._tag === "NotFound") assert.strictEqual(coach.detail, "Coach not found")

      const blank = yield* club.todo.createTask({ title: "" }).pipe(Effect.flip)
      assert.deepStrictEqual([blank._tag, blank.code, blank.message], [
        "TodoRpcError",
        "invalid_argument",
        "title must not be blank"
      ])
    }).pipe(
      Effect.provide(ClubApiClient.layerLogin({ baseUrl: server.baseUrl, name: "ann", password: "whatever-it-is" }))
    ))

  it.live("answers an expired token with the contract's Unauthorized, without a round trip", () =>
    Effect.gen(function*() {
      const club = yield* ClubApiClient
      const before = server.requests.length
      const error = yield* club.sessions.all().pipe(Effect.flip)
      assert.strictEqual(error._tag, "Unauthorized")
      if (error._tag === "Unauthorized") assert.strictEqual(error.detail, TOKEN_EXPIRED_MESSAGE)
      const rpc = yield* club.todo.listTasks().pipe(Effect.flip)
      assert.strictEqual(rpc.code, "unauthenticated")
      assert.strictEqual(server.requests.length, before)
    }).pipe(Effect.provide(ClubApiClient.layer({ baseUrl: server.baseUrl, token: jwt(now() - 5) }))))
})

describe("the Effect face's own idioms for one call's options", () => {
  it.live("headers and an idempotency key with withCallOptions; a time limit with Effect.timeout; abandoning by interruption", () =>
    Effect.gen(function*() {
      const club = yield* ClubApiClient
      yield* club.coaches.get({ params: { id: coachId(5) } }).pipe(
        withCallOptions({ headers: { "x-call": "effect" }, idempotencyKey: "key-1" }),
        Effect.flip
      )
      const sent = server.requests.at(-1)!.headers
      assert.deepStrictEqual([sent["x-call"], sent["idempotency-key"]], ["effect", "key-1"])
      const timedOut = yield* club.sessions.get({ params: { id: sessionId(1) } }).pipe(
        Effect.timeout("150 millis"),
        Effect.flip
      )
      assert.strictEqual(timedOut._tag, "TimeoutError")
    }).pipe(Effect.provide(ClubApiClient.layer({ baseUrl: server.baseUrl, token: jwt(now() + 600) }))))
})
