import { afterAll, beforeAll } from "vitest"
import {
  firstAdmin,
  type InProcessAppOptions,
  makeInProcessApp,
  type Reply,
  type RequestOptions,
  type Send
} from "./InProcessApp.ts"

export type Role = "ADMIN" | "COACH" | "ATHLETE"

/** Requests made with one caller's credentials. */
export interface Caller {
  readonly get: (path: string, extra?: RequestOptions) => Promise<Reply>
  readonly post: (path: string, json?: unknown, extra?: RequestOptions) => Promise<Reply>
  readonly put: (path: string, json?: unknown, extra?: RequestOptions) => Promise<Reply>
  readonly delete: (path: string, extra?: RequestOptions) => Promise<Reply>
  readonly send: (method: string, path: string, extra?: RequestOptions) => Promise<Reply>
}

/** An app with an admin, a coach and an athlete, each logged in, and the records the last two are linked to. */
export interface Club {
  readonly send: Send
  readonly anonymous: Caller
  readonly admin: Caller
  readonly coach: Caller
  readonly athlete: Caller
  readonly as: (role: Role | "none") => Caller
  readonly withToken: (token: string | null) => Caller
  readonly token: Record<Role, string>
  readonly userId: Record<Role, number>
  /** The coach record linked to the COACH user. */
  readonly coachId: number
  /** The athlete record linked to the ATHLETE user. */
  readonly athleteId: number
}

export const callerWith = (send: Send, token: string | null): Caller => {
  const withBody = (method: string) => (path: string, json?: unknown, extra: RequestOptions = {}) =>
    send(method, path, { token, ...(json === undefined ? {} : { json }), ...extra })
  return {
    get: (path, extra = {}) => send("GET", path, { token, ...extra }),
    post: withBody("POST"),
    put: withBody("PUT"),
    delete: (path, extra = {}) => send("DELETE", path, { token, ...extra }),
    send: (method, path, extra = {}) => send(method, path, { token, ...extra })
  }
}

const expectStatus = (reply: Reply, status: number, what: string) => {
  if (reply.status !== status) throw new Error(`${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as Record<string, unknown>
}

const login = async (send: Send, name: string, password: string) =>
  expectStatus(
    await send("POST", "/auth/login", { json: { name, password } }),
    200,
    `Login of ${name}`
  )["token"] as string

/** Builds the club through the API itself, as a client would. */
export const startClub = async (options: InProcessAppOptions = {}) => {
  const app = makeInProcessApp(options)
  const { send } = app
  const adminToken = await login(send, firstAdmin.name, firstAdmin.password)
  const admin = callerWith(send, adminToken)
  const coachId = expectStatus(await admin.post("/create", { name: "Coach Carter" }), 201, "A coach")["id"] as number
  const athleteId = expectStatus(
    await admin.post("/athletes/create", { name: "Alex Athlete", categorie: "Senior", niveau: "A" }),
    201,
    "An athlete"
  )["id"] as number
  const coachUser = expectStatus(
    await admin.post("/users/create", { name: "coach", role: "COACH", password: "coach-password-0", coachId }),
    201,
    "The coach user"
  )
  const athleteUser = expectStatus(
    await admin.post("/users/create", { name: "athlete", role: "ATHLETE", password: "athlete-password-0", athleteId }),
    201,
    "The athlete user"
  )
  const adminUser = expectStatus(await admin.get("/auth/me"), 200, "The admin's user")
  const token: Record<Role, string> = {
    ADMIN: adminToken,
    COACH: await login(send, "coach", "coach-password-0"),
    ATHLETE: await login(send, "athlete", "athlete-password-0")
  }
  const as = (role: Role | "none") => callerWith(send, role === "none" ? null : token[role])
  const club: Club = {
    send,
    anonymous: as("none"),
    admin,
    coach: as("COACH"),
    athlete: as("ATHLETE"),
    as,
    withToken: (value) => callerWith(send, value),
    token,
    userId: {
      ADMIN: adminUser["id"] as number,
      COACH: coachUser["id"] as number,
      ATHLETE: athleteUser["id"] as number
    },
    coachId,
    athleteId
  }
  return { club, dispose: app.dispose }
}

/** A club for the tests of the file (one app, built before the first test and disposed after the last). */
export const clubForFile = (options: InProcessAppOptions = {}): () => Club => {
  let started: Awaited<ReturnType<typeof startClub>> | undefined
  beforeAll(async () => {
    started = await startClub(options)
  })
  afterAll(() => started?.dispose())
  return () => {
    if (started === undefined) throw new Error("The club is built before the first test")
    return started.club
  }
}
