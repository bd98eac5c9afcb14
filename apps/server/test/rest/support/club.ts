import {
  serverAnswers,
  type TemporaryDatabase,
  temporaryTestDatabase,
  testServerUrl
} from "@club/postgres-adapter/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe } from "vitest"
import { startServer, type ServerProcess } from "@club/test-support"
import { type Club as SharedClub, firstAdmin, setUpClub } from "@club/test-support/rest"
import { send } from "./http.ts"

export { type Role, unique, type UserDto } from "@club/test-support/rest"

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

export const adminName = firstAdmin.name
export const adminPassword = firstAdmin.password
/** Known to the tests, so that they can sign tokens of their own (expired ones, for instance). */
export const jwtSecret = "rest-suite-secret-rest-suite-secret-0123456789"

/** A started server with an admin, a coach and an athlete logged in. */
export interface Club extends SharedClub {
  readonly url: string
  readonly server: ServerProcess
  /** The PostgreSQL database the server uses, on a real server; undefined on the embedded one. */
  readonly databaseUrl: string | undefined
}

/** What a file may set for its servers beyond the suite's defaults. */
export interface ClubOptions {
  /** More environment variables for the server. */
  readonly env?: Record<string, string>
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
  const release = async () => {
    await server.stop()
    await temporary?.drop()
  }
  const members = await setUpClub((method, path, options) => send(url, method, path, options)).catch(
    async (error: unknown) => {
      await release()
      throw error
    }
  )
  return { club: { ...members, url, server, databaseUrl: env["DATABASE_URL"] }, release }
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
