import {
  AuthService,
  CoachCreate,
  CoachService,
  CurrentActor,
  SessionCreate,
  SessionService,
  UserCreate,
  UserService
} from "@club/core"
import { makeFastReads } from "@club/http-adapter"
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig, AuthSettingsFromConfig, FirstAdminLive, TracingDisabled, UseCases } from "../src/index.ts"

// Which path answered is what these tests look at: the fast path's own success (200), its
// hand-over to the API (599 here), or a request it does not take (598 here). That both paths
// answer alike is shown over the wire by test/rest/fastReads.test.ts.
const handedOver = 599
const declined = 598

Object.assign(process.env, {
  DATA_DIR: "memory://",
  ADMIN_NAME: "fast-admin",
  ADMIN_PASSWORD: "fast-admin-password",
  JWT_SECRET: "fast-reads-secret-fast-reads-secret-0123456789"
})
const runtime = ManagedRuntime.make(
  Layer.merge(UseCases, FirstAdminLive.pipe(Layer.provide(UseCases))).pipe(
    Layer.provide(Layer.merge(AuthSettingsFromConfig, TracingDisabled)),
    Layer.provideMerge(AppConfig.layer)
  )
)

const login = (name: string, password: string) =>
  AuthService.use((auth) => auth.login({ name, password: Redacted.make(password), clientAddress: null })).pipe(
    Effect.map((result) => result.token)
  )
const as = <A, E, R>(token: string, effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    AuthService.use((auth) => auth.authenticate(token)),
    (actor) => Effect.provideService(effect, CurrentActor, actor)
  )

let server: Server
let port: number
let coachToken: string
let adminToken: string
let sessionId: number
let coachUserId: number

beforeAll(async () => {
  const setup = Effect.gen(function*() {
    const admin = yield* login("fast-admin", "fast-admin-password")
    const coach = yield* as(
      admin,
      CoachService.use((coaches) =>
        coaches.create(Schema.decodeUnknownSync(CoachCreate)({ id: null, name: "Coach Fast" }))
      )
    )
    const user = yield* as(
      admin,
      UserService.use((users) =>
        users.create(
          Schema.decodeUnknownSync(UserCreate)({
            name: "fast-coach",
            email: null,
            role: "COACH",
            password: "fast-coach-password",
            coachId: coach.id,
            athleteId: null,
            adminId: null
          })
        )
      )
    )
    const coachToken = yield* login("fast-coach", "fast-coach-password")
    const session = yield* as(
      coachToken,
      SessionService.use((sessions) =>
        sessions.create(
          Schema.decodeUnknownSync(SessionCreate)({
            id: null,
            name: "Morning run",
            isRecurrent: true,
            creneau: "2026-03-01T07:30:00",
            duree: 45,
            groupe: "A",
            coachId: coach.id,
            athleteIds: [],
            activiteIds: []
          })
        )
      )
    )
    const handler = yield* makeFastReads
    return { admin, coachToken, session, user, handler }
  })
  const ready = await runtime.runPromise(setup)
  adminToken = ready.admin
  coachToken = ready.coachToken
  sessionId = ready.session.id
  coachUserId = ready.user.id
  server = createServer((request, response) => {
    const taken = ready.handler(request, response, () => response.writeHead(handedOver).end())
    if (!taken) response.writeHead(declined).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
}, 60_000)

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await runtime.dispose()
})

const send = (path: string, options: { method?: string; authorization?: string; body?: string } = {}) =>
  new Promise<{ status: number; contentType: string | undefined; body: string }>((resolve, reject) => {
    const outgoing = httpRequest({
      host: "127.0.0.1",
      port,
      path,
      method: options.method ?? "GET",
      headers: {
        ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
        ...(options.body === undefined ? {} : { "content-length": Buffer.byteLength(options.body) })
      }
    }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (body += chunk))
      response.on(
        "end",
        () => resolve({ status: response.statusCode!, contentType: response.headers["content-type"], body })
      )
    })
    outgoing.on("error", reject)
    outgoing.end(options.body)
  })

describe("the fast path for plain reads by id", () => {
  it("answers a plain read that succeeds itself, with the endpoint's DTO", async () => {
    const answer = await send(`/session/${sessionId}`, { authorization: `Bearer ${coachToken}` })
    expect(answer.status).toBe(200)
    expect(answer.contentType).toBe("application/json")
    expect(JSON.parse(answer.body)).toEqual({
      id: sessionId,
      name: "Morning run",
      isRecurrent: true,
      creneau: "2026-03-01T07:30:00",
      duree: 45,
      groupe: "A",
      coachId: expect.any(Number),
      athleteIds: [],
      activiteIds: []
    })
    // The owner rule of user.read, as the API's role gate applies it: a coach reads their own user.
    expect((await send(`/users/${coachUserId}`, { authorization: `Bearer ${coachToken}` })).status).toBe(200)
  })

  it("hands every other outcome to the API: unknown record, refused role, bad or expired token", async () => {
    const refusals = await Promise.all([
      send("/session/999999", { authorization: `Bearer ${coachToken}` }),
      send(`/session/${sessionId}`, { authorization: `Bearer ${adminToken}` }),
      send(`/users/${coachUserId + 1000}`, { authorization: `Bearer ${coachToken}` }),
      send(`/session/${sessionId}`, { authorization: `Bearer ${coachToken}x` }),
      send(`/session/${sessionId}`, { authorization: "Bearer not.a.token" })
    ])
    expect(refusals.map((answer) => answer.status)).toEqual(Array(refusals.length).fill(handedOver))
  })

  it("does not take what is not a plain read by id", async () => {
    const bearer = `Bearer ${coachToken}`
    const others = await Promise.all([
      send(`/session/${sessionId}`),
      send(`/session/${sessionId}`, { authorization: `bearer ${coachToken}` }),
      send(`/session/${sessionId}`, { authorization: `Bearer  ${coachToken}` }),
      send(`/session/${sessionId}?x=1`, { authorization: bearer }),
      send(`/session/0${sessionId}`, { authorization: bearer }),
      send(`/session/${sessionId}/`, { authorization: bearer }),
      send("/session/all", { authorization: bearer }),
      send(`/session/update/${sessionId}`, { authorization: bearer }),
      send(`/Session/${sessionId}`, { authorization: bearer }),
      send(`/${sessionId}`, { authorization: bearer }),
      send(`/session/${sessionId}`, { method: "HEAD", authorization: bearer }),
      send(`/session/${sessionId}`, { method: "DELETE", authorization: bearer }),
      send(`/session/${sessionId}`, { authorization: bearer, body: "{}" }),
      send("/session/99999999999999999", { authorization: bearer })
    ])
    expect(others.map((answer) => answer.status)).toEqual(Array(others.length).fill(declined))
  })
})
