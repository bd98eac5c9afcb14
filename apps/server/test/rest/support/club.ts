import {
  serverAnswers,
  type TemporaryDatabase,
  temporaryTestDatabase,
  testServerUrl
} from "@club/postgres-adapter/testing"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe } from "vitest"
import { startServer, type ServerProcess } from "@club/test-support"
import { type Caller, callerWith, type Reply, type RequestOptions, send } from "./http.ts"

/** The two databases every file runs on; the real server only when one answers at TEST_DATABASE_URL. */
export interface TestedDatabase {
  readonly name: string
  readonly kind: "embedded" | "server"
  readonly available: boolean
}

const testedDatabases = async (): Promise<ReadonlyArray<TestedDatabase>> => {
  const url = testServerUrl()
  const available = url !== undefined && await Effect.runPromise(serverAnswers(url))
  return [
    { name: "the embedded database (DATA_DIR=memory://)", kind: "embedded", available: true },
    { name: "a real PostgreSQL (DATABASE_URL)", kind: "server", available }
  ]
}

export const adminName = "head-admin"
export const adminPassword = "admin-password-0"
/** Known to the tests, so that they can sign tokens of their own (expired ones, for instance). */
export const jwtSecret = "rest-suite-secret-rest-suite-secret-0123456789"

export type Role = "ADMIN" | "COACH" | "ATHLETE"

export interface UserDto {
  readonly id: number
  readonly name: string
  readonly email: string | null
  readonly role: Role
}

/** A started server with an admin, a coach and an athlete logged in. */
export interface Club {
  readonly url: string
  readonly server: ServerProcess
  readonly anonymous: Caller
  readonly admin: Caller
  readonly coach: Caller
  readonly athlete: Caller
  readonly as: (role: Role | "none") => Caller
  readonly withToken: (token: string | null) => Caller
  readonly token: Record<Role, string>
  readonly user: Record<Role, UserDto>
  /** The coach record linked to the COACH user. */
  readonly coachId: number
  /** The athlete record linked to the ATHLETE user. */
  readonly athleteId: number
  /** Every answer the server gave during the file, for checks over all of them. */
  readonly replies: Array<Reply>
  /** Every password the file sent, so that no answer is found to contain one. */
  readonly passwords: Set<string>
  /** The PostgreSQL database the server uses, on a real server; undefined on the embedded one. */
  readonly databaseUrl: string | undefined
}

/** What a file may set for its servers beyond the suite's defaults. */
export interface ClubOptions {
  /** More environment variables for the server. */
  readonly env?: Record<string, string>
}

let uniqueCounter = 0
/** A name no other test of the run uses. */
export const unique = (prefix: string) =>
  `${prefix}-${process.pid}-${++uniqueCounter}-${randomBytes(3).toString("hex")}`

type Send = (method: string, path: string, options: RequestOptions) => Promise<Reply>

const loginToken = async (request: Send, name: string, password: string) => {
  const reply = await request("POST", "/auth/login", { token: null, json: { name, password } })
  if (reply.status !== 200) throw new Error(`Login of ${name} failed: ${reply.status} ${reply.text}`)
  return (reply.body as { token: string }).token
}

const expectCreated = <A>(reply: Reply, what: string): A => {
  if (reply.status !== 201) throw new Error(`Creating ${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

const startClub = async (
  database: TestedDatabase,
  options: ClubOptions
): Promise<{ club: Club; release: () => Promise<void> }> => {
  let temporary: TemporaryDatabase | undefined
  const env: Record<string, string> = {
    ADMIN_NAME: adminName,
    ADMIN_PASSWORD: adminPassword,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: "warn",
    ...options.env
  }
  if (database.kind === "server") {
    temporary = await temporaryTestDatabase()
    if (temporary === undefined) throw new Error("The PostgreSQL server answered, then could not create a database")
    env["DATABASE_URL"] = temporary.urlVia(temporary.server.host, temporary.server.port)
  } else {
    env["DATA_DIR"] = "memory://"
  }
  const server = await startServer(env).catch(async (error: unknown) => {
    await temporary?.drop()
    throw error
  })
  const url = `http://127.0.0.1:${server.port}`
  const replies: Array<Reply> = []
  const passwords = new Set([adminPassword])
  const request: Send = async (method, path, options) => {
    const reply = await send(url, method, path, options)
    replies.push(reply)
    return reply
  }
  const adminToken = await loginToken(request, adminName, adminPassword)
  const admin = callerWith(request, adminToken)
  const coachRecord = expectCreated<{ id: number }>(await admin.post("/create", { name: "Coach Carter" }), "a coach")
  const athleteRecord = expectCreated<{ id: number }>(
    await admin.post("/athletes/create", { name: "Alex Athlete", categorie: "Senior", niveau: "A" }),
    "an athlete"
  )
  const coachPassword = "coach-password-0"
  const athletePassword = "athlete-password-0"
  passwords.add(coachPassword).add(athletePassword)
  const [coachUser, athleteUser] = await Promise.all([
    admin.post("/users/create", {
      name: "coach",
      email: "coach@club.test",
      role: "COACH",
      password: coachPassword,
      coachId: coachRecord.id
    }),
    admin.post("/users/create", {
      name: "athlete",
      role: "ATHLETE",
      password: athletePassword,
      athleteId: athleteRecord.id
    })
  ])
  const [adminUser] = (await admin.get("/users/all")).body as Array<UserDto>
  const token: Record<Role, string> = {
    ADMIN: adminToken,
    COACH: await loginToken(request, "coach", coachPassword),
    ATHLETE: await loginToken(request, "athlete", athletePassword)
  }
  const as = (role: Role | "none") => callerWith(request, role === "none" ? null : token[role])
  const club: Club = {
    url,
    server,
    anonymous: as("none"),
    admin,
    coach: as("COACH"),
    athlete: as("ATHLETE"),
    as,
    withToken: (value) => callerWith(request, value),
    token,
    user: {
      ADMIN: adminUser!,
      COACH: expectCreated<UserDto>(coachUser, "the coach user"),
      ATHLETE: expectCreated<UserDto>(athleteUser, "the athlete user")
    },
    coachId: coachRecord.id,
    athleteId: athleteRecord.id,
    replies,
    passwords,
    databaseUrl: env["DATABASE_URL"]
  }
  return {
    club,
    release: async () => {
      await server.stop()
      await temporary?.drop()
    }
  }
}

type Started = Awaited<ReturnType<typeof startClub>>

/**
 * Declares `define`'s tests once per database, each run against a server of its own. Both servers
 * start together (each takes seconds), before the first test of the file.
 */
export const onEveryDatabase = async (
  title: string,
  define: (club: () => Club, database: TestedDatabase) => void,
  options: ClubOptions = {}
) => {
  const databases = await testedDatabases()
  const starting = new Map<TestedDatabase, Promise<Started | Error>>()
  beforeAll(() => {
    for (const database of databases) {
      if (!database.available) continue
      const started = startClub(database, options).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error))
      )
      starting.set(database, started)
    }
  })
  afterAll(async () => {
    const started = await Promise.all(starting.values())
    await Promise.all(started.map((result) => result instanceof Error ? undefined : result.release()))
  })
  for (const database of databases) {
    describe.skipIf(!database.available)(`${title}, on ${database.name}`, () => {
      let club: Club | undefined
      beforeAll(async () => {
        const started = await starting.get(database)
        if (started === undefined || started instanceof Error) throw started ?? new Error("The server was not started")
        club = started.club
      })
      define(() => {
        if (club === undefined) throw new Error("The server is not started")
        return club
      }, database)
    })
  }
}
