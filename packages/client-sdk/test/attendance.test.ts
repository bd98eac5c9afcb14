import { assert, it as effectIt } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { athleteId, ClubApiClient, ClubClient, sessionId } from "../src/index.ts"
import { json, problem, startFakeServer } from "./fakeServer.ts"

const jwt = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString("base64url")}.sig`
const reply = { sessionId: 7, athleteId: 3, answer: "yes", reason: null, state: "waiting", waitingPosition: 2 }
const csv = "session_id,creneau,session_name,groupe,athlete_id,athlete_name,status\r\n"

let server: Awaited<ReturnType<typeof startFakeServer>>

beforeAll(async () => {
  server = await startFakeServer((request) => {
    switch (`${request.method} ${request.url}`) {
      case "POST /auth/login":
        return json(200, {
          token: jwt(Math.floor(Date.now() / 1000) + 3600),
          tokenType: "Bearer",
          expiresIn: 3600,
          user: { id: 1, name: "coach", email: null, role: "COACH", coachId: 1, athleteId: null, adminId: null }
        })
      case "PUT /attendance/athletes/3/replies/7?scope=following":
        return json(200, [reply])
      case "PUT /attendance/athletes/3/replies/8":
        return problem(409, "Conflict", "Replies to session 8 closed at 2026-11-20T12:00:00")
      case "GET /attendance/export?from=2026-09-01&to=2027-06-30":
        return { status: 200, contentType: "text/csv", body: csv }
    }
    return undefined
  })
})

afterAll(() => server.close())

const login = { name: "coach", password: "any-password-1" }

describe("issue 18's attendance in both SDK faces", () => {
  it("the Promise face replies for the following occurrences, reads a closed session's 409, and exports CSV text", async () => {
    const club = await ClubClient.login({ ...login, baseUrl: server.baseUrl, retry: false })
    expect(
      await club.attendance.reply({
        params: { id: athleteId(3), sessionId: sessionId(7) },
        query: { scope: "following" },
        payload: { answer: "yes" }
      })
    ).toEqual([reply])
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ answer: "yes" })
    const closed = await club.attendance.reply({
      params: { id: athleteId(3), sessionId: sessionId(8) },
      query: {},
      payload: { answer: "no", reason: "late" }
    }).then(() => undefined, (error: unknown) => error)
    expect(closed).toMatchObject({
      tag: "Conflict",
      status: 409,
      message: "Replies to session 8 closed at 2026-11-20T12:00:00"
    })
    // An endpoint whose only arguments are query parameters sends them.
    expect(await club.attendance.exportSeason({ query: { from: "2026-09-01", to: "2027-06-30" } as never })).toBe(csv)
  })

  effectIt.live("the Effect face types the same reply", () =>
    Effect.gen(function*() {
      const club = yield* ClubApiClient
      const written = yield* club.attendance.reply({
        params: { id: athleteId(3), sessionId: sessionId(7) },
        query: { scope: "following" },
        payload: { answer: "yes" }
      })
      assert.deepStrictEqual(written.map((r) => r.state), ["waiting"])
      const closed = yield* club.attendance.reply({
        params: { id: athleteId(3), sessionId: sessionId(8) },
        query: {},
        payload: { answer: "no" }
      }).pipe(Effect.flip)
      assert.strictEqual(closed._tag, "Conflict")
    }).pipe(Effect.provide(ClubApiClient.layerLogin({ ...login, baseUrl: server.baseUrl }))))
})
