import { EmbeddedPostgres, embeddedDataDir } from "@club/postgres-adapter"
import { serverAnswers, temporaryTestDatabase, testServerUrl } from "@club/postgres-adapter/testing"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { openSql } from "./reliability/support/Sql.ts"
import { http1 } from "./support/requests.ts"
import { type LogLine, messageOf, type ServerProcess, startServer } from "@club/test-support"

/**
 * CONTRACT.md: on start, when no ADMIN user exists, one is created from ADMIN_NAME. When that name
 * is taken by a user of another role, nothing is created and nobody is promoted: the server says so
 * in one ERROR line, with how to recover, and keeps serving.
 */

/** A database kept across server restarts, which the test can also change directly while no server runs. */
interface KeptDatabase {
  readonly env: Record<string, string>
  /** Runs SQL on the database; only while no server is running (the embedded one has one process). */
  readonly execute: (statement: string) => Promise<void>
  readonly release: () => Promise<void>
}

const onServer = async (): Promise<KeptDatabase> => {
  const temporary = await temporaryTestDatabase()
  if (temporary === undefined) throw new Error("No PostgreSQL server answers at TEST_DATABASE_URL")
  const url = temporary.urlVia(temporary.server.host, temporary.server.port)
  return {
    env: { DATABASE_URL: url },
    execute: async (statement) => {
      const sql = await openSql(url)
      await sql.query(statement).finally(() => sql.close())
    },
    release: () => temporary.drop()
  }
}

const embeddedOnDisk = async (): Promise<KeptDatabase> => {
  const dataDir = await mkdtemp(join(tmpdir(), "club-first-admin-"))
  return {
    env: { DATA_DIR: dataDir },
    execute: async (statement) => {
      const runtime = ManagedRuntime.make(EmbeddedPostgres({ dataDir: embeddedDataDir(dataDir) }))
      await runtime.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(statement)))
        .finally(() => runtime.dispose())
    },
    release: () => rm(dataDir, { recursive: true, force: true })
  }
}

const postgresAnswers = await (async () => {
  const url = testServerUrl()
  return url !== undefined && await Effect.runPromise(serverAnswers(url))
})()

const databases = [
  { name: "the embedded database (DATA_DIR on disk)", open: embeddedOnDisk, available: true },
  { name: "a real PostgreSQL (DATABASE_URL)", open: onServer, available: postgresAnswers }
]

const running: Array<ServerProcess> = []
const kept: Array<KeptDatabase> = []
afterEach(() => Promise.all(running.splice(0).map((server) => server.stop())))
afterAll(() => Promise.all(kept.splice(0).map((database) => database.release())))

const start = async (database: KeptDatabase, env: Record<string, string>) => {
  const server = await startServer({
    ...database.env,
    JWT_SECRET: "first-admin-suite-secret-first-admin-suite",
    LOG_LEVEL: "info",
    ...env
  })
  running.push(server)
  return server
}

const stop = async (server: ServerProcess) => {
  expect(await server.stop()).toEqual({ code: 0, signal: null })
}

const login = async (server: ServerProcess, name: string, password: string) => {
  const response = await fetch(`http://127.0.0.1:${server.port}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password })
  })
  return { status: response.status, body: (await response.json()) as { user?: { name: string; role: string } } }
}

const linesOf = (server: ServerProcess, event: string): Array<LogLine> =>
  server.logs().filter((line) => line.annotations["event"] === event)

for (const database of databases) {
  // Each start opens a database (seconds, more on a busy machine).
  describe.skipIf(!database.available)(
    `Start-up without an ADMIN user, on ${database.name}`,
    { timeout: 180_000 },
    () => {
      it("ADMIN_NAME taken by a non-admin: one ERROR line saying how to recover, nobody promoted, still serving; a free ADMIN_NAME then recovers", async () => {
        const db = await database.open()
        kept.push(db)

        // A club whose only ADMIN user lost the role behind the API's back (the API now refuses that).
        const first = await start(db, { ADMIN_NAME: "founder", ADMIN_PASSWORD: "founder-password-0" })
        expect(linesOf(first, "first-admin-created")).toHaveLength(1)
        await stop(first)
        await db.execute("UPDATE users SET role = 'COACH', admin_id = NULL WHERE role = 'ADMIN'")

        const stuck = await start(db, { ADMIN_NAME: "founder", ADMIN_PASSWORD: "founder-password-0" })
        const errors = stuck.logs().filter((line) => line.level === "ERROR")
        expect(errors.map(messageOf)).toHaveLength(1)
        const [line] = linesOf(stuck, "no-admin-user")
        expect(line?.level).toBe("ERROR")
        expect(messageOf(line!)).toBe(
          "No ADMIN user exists, and ADMIN_NAME 'founder' is taken by a user of role COACH, so no admin was created " +
            "and no user was promoted. To recover, start the server with ADMIN_NAME set to a name no user has: a new " +
            "ADMIN user of that name is then created, with ADMIN_PASSWORD as its password or, when ADMIN_PASSWORD is " +
            "unset, a generated password printed once on standard error."
        )
        expect(linesOf(stuck, "first-admin-created")).toEqual([])
        expect((await http1(stuck.port, "/health/ready")).status).toBe(200)
        const founder = await login(stuck, "founder", "founder-password-0")
        expect(founder.status).toBe(200)
        expect(founder.body.user?.role).toBe("COACH")
        await stop(stuck)

        const recovered = await start(db, { ADMIN_NAME: "rescuer" })
        expect(recovered.logs().filter((line) => line.level === "ERROR")).toEqual([])
        const [created, ...others] = linesOf(recovered, "first-admin-created")
        expect(others).toEqual([])
        expect(created?.annotations["adminName"]).toBe("rescuer")
        const password = recovered.errorOutput.map((line) => /^ {2}password: ([A-Za-z0-9_-]{24})$/u.exec(line)?.[1])
          .find((found) => found !== undefined)
        expect(password).toBeDefined()
        const rescuer = await login(recovered, "rescuer", password!)
        expect(rescuer.status).toBe(200)
        expect(rescuer.body.user).toMatchObject({ name: "rescuer", role: "ADMIN" })
      })
    }
  )
}
