// The light client (`@club/client-sdk/fetch`) held to the Promise face's own tests of promiseFace.test.ts: the same
// fake server and expectations, its REST calls only (the light client has no TodoService and no
// local check of arguments).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { activityId, athleteId, ClubRestClient as ClubClient, coachId, sessionId } from "../src/fetch.ts"
import { failure } from "./failure.ts"
import { json, problem, startFakeServer, text } from "./fakeServer.ts"

const jwt = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString("base64url")}.sig`
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

const session = {
  id: 7,
  name: "Intervals",
  isRecurrent: false,
  creneau: "2026-01-05T18:00:00",
  duree: 60,
  groupe: null,
  coachId: 1,
  athleteIds: [2],
  activiteIds: []
}

let server: Awaited<ReturnType<typeof startFakeServer>>

beforeAll(async () => {
  server = await startFakeServer((request) => {
    switch (`${request.method} ${request.url}`) {
      case "POST /auth/login":
        return JSON.parse(request.body).password === "right-password"
          ? json(200, {
            token: jwt(inAnHour()),
            tokenType: "Bearer",
            expiresIn: 3600,
            user: { id: 1, name: "coach", email: null, role: "COACH", coachId: 1, athleteId: null, adminId: null }
          })
          : problem(401, "Unauthorized", "Wrong name or password")
      case "GET /session/7":
        return json(200, session, { "x-request-id": "req-read-7" })
      case "GET /session/999":
        return { ...text(404, "Session not found with id 999"), headers: { "x-request-id": "req-999" } }
      case "GET /coaches/5":
        return problem(404, "Not Found", "Coach not found", { instance: "/coaches/5" }, {
          "x-request-id": "req-coach-5"
        })
      case "POST /session/create":
        return problem(403, "Forbidden", "Only a coach may create a session")
      case "POST /coaches/create":
        return problem(400, "Bad Request", "name: Expected a string", {
          instance: "/coaches/create",
          errors: [{ field: "name", message: "Expected a string" }]
        })
      case "GET /activite/3":
        return { status: 404 }
      case "POST /activite/create": {
        // Where the server puts the new activity's id, and what a proxy in front may make of it.
        const locations: Record<number, string | undefined> = {
          7: "/activite/12",
          8: "https://club.example/api/activite/13",
          10: undefined,
          11: "/activite/twelve"
        }
        const { sessionId } = JSON.parse(request.body) as { sessionId: number }
        if (sessionId === 9) return text(500, "Error: Session 9 not found")
        const location = locations[sessionId]
        return { ...text(201, "Activity created"), headers: location === undefined ? {} : { location } }
      }
      case "PUT /athletes/4":
        return { status: 204 }
      case "GET /auth/me":
        return problem(401, "Unauthorized", "The token has expired")
      case "GET /activite/all":
        return text(502, "Bad gateway")
    }
    return undefined
  })
})

afterAll(() => server.close())

describe("the Promise face", () => {
  it("logs in, keeps the user and the token's lifetime, and sends the token with every call", async () => {
    const club = await ClubClient.login({
      baseUrl: server.baseUrl,
      name: "coach",
      password: "right-password",
      retry: false
    })
    expect(club.user?.role).toBe("COACH")
    expect(club.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3500_000)
    expect(await club.sessions.get({ params: { id: sessionId(7) } })).toEqual(session)
    expect(server.requests.at(-1)?.authorization).toBe(`Bearer ${club.token}`)
  })

  it("rejects a wrong password with the server's 401", async () => {
    const error = await failure(
      ClubClient.login({ baseUrl: server.baseUrl, name: "coach", password: "wrong-password" })
    )
    expect(error).toMatchObject({ tag: "Unauthorized", status: 401, message: "Wrong name or password" })
  })

  describe("with a client", () => {
    const club = () => ClubClient.fromToken({ baseUrl: server.baseUrl, token: jwt(inAnHour()), retry: false })

    it("reads the seed's plain-text 404, with the server's request id", async () => {
      const error = await failure(club().sessions.get({ params: { id: sessionId(999) } }))
      expect(error).toMatchObject({
        tag: "SessionNotFoundText",
        status: 404,
        message: "Session not found with id 999",
        requestId: "req-999"
      })
    })

    it("reads a problem whole: detail, title, instance, the fields it names, and the request id", async () => {
      expect(await failure(club().coaches.get({ params: { id: coachId(5) } }))).toMatchObject({
        tag: "NotFound",
        status: 404,
        message: "Coach not found",
        requestId: "req-coach-5",
        problem: {
          type: "about:blank",
          title: "Not Found",
          status: 404,
          detail: "Coach not found",
          instance: "/coaches/5"
        }
      })
      expect(await failure(club().sessions.create({ payload: { name: "x" } }))).toMatchObject({
        tag: "Forbidden",
        status: 403
      })
      expect((await failure(club().coaches.create({ payload: { name: "x" } }))).problem?.errors).toEqual([
        { field: "name", message: "Expected a string" }
      ])
    })

    it("reads the seed's empty 404, its 500 'Error: ' text and its 204 failure", async () => {
      expect(await failure(club().activities.get({ params: { id: activityId(3) } }))).toMatchObject({
        tag: "NotFoundEmpty",
        status: 404
      })
      expect(await failure(club().activities.create({ payload: { sessionId: sessionId(9), name: "Warm-up" } })))
        .toMatchObject({
          tag: "ActivityFailed",
          status: 500,
          message: "Session 9 not found"
        })
      expect(await failure(club().athletes.update({ params: { id: athleteId(4) }, payload: { name: "A" } })))
        .toMatchObject({
          tag: "AthleteUpdateFailed",
          status: 204
        })
    })

    it("returns the created activity's id, read from the answer's Location, as the seed's body is only text", async () => {
      expect(await club().activities.create({ payload: { sessionId: sessionId(7), name: "Warm-up" } })).toEqual({
        message: "Activity created",
        id: 12
      })
      const proxied = await club().activities.create({ payload: { sessionId: sessionId(8), name: "Warm-up" } })
      expect(proxied.id).toBe(activityId(13))
      // A 201 without a Location the SDK can read is not an answer the contract declares.
      for (const id of [10, 11]) {
        expect(await failure(club().activities.create({ payload: { sessionId: sessionId(id), name: "Warm-up" } })))
          .toMatchObject({
            tag: "UnexpectedResponse",
            status: 201
          })
      }
    })

    it("reports an answer the contract does not declare with its status and body", async () => {
      expect(await failure(club().activities.all())).toMatchObject({
        tag: "UnexpectedResponse",
        status: 502,
        message: "Bad gateway"
      })
    })

    it("reports a server-side expiry clearly", async () => {
      expect(await failure(club().auth.me())).toMatchObject({
        tag: "TokenExpired",
        status: 401,
        message: "The session token has expired; log in again"
      })
    })
  })

  it("fails every call of an expired token locally, with no request sent", async () => {
    const club = ClubClient.fromToken({ baseUrl: server.baseUrl, token: jwt(Math.floor(Date.now() / 1000) - 1) })
    expect(club.isExpired()).toBe(true)
    const before = server.requests.length
    expect(await failure(club.sessions.get({ params: { id: sessionId(7) } }))).toMatchObject({
      tag: "TokenExpired",
      status: 401,
      message: "The session token has expired; log in again"
    })
    expect(server.requests.length).toBe(before)
  })

  it("reports an unreachable server as a network error", async () => {
    const club = ClubClient.fromToken({ baseUrl: "http://127.0.0.1:9", token: "opaque", retry: false })
    expect(await failure(club.health.live())).toMatchObject({ tag: "NetworkError", status: undefined })
  })
})
