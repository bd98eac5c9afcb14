import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { http1 } from "./support/requests.ts"
import { eventually, startServer } from "@club/test-support"
import { startTcpProxy } from "./support/TcpProxy.ts"

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

/** One statement on the database, over a connection of the test's own. */
const run = (url: string, statement: string) =>
  Effect.runPromise(
    SqlClient.SqlClient.use((sql) => sql.unsafe(statement)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
      Effect.orDie
    )
  )

const readiness = async (port: number) => {
  const answer = await http1(port, "/health/ready")
  return { ...answer, json: JSON.parse(answer.body) as unknown }
}

describe.skipIf(database === undefined)("readiness follows the database (PostgreSQL server behind a proxy)", {
  timeout: 120_000
}, () => {
  it("turns 503 when the database goes away and 200 again when it comes back", async () => {
    const proxy = await startTcpProxy(database!.server)
    const dataDir = await mkdtemp(join(tmpdir(), "club-ready-"))
    const server = await startServer({
      DATABASE_URL: database!.urlVia("127.0.0.1", proxy.port),
      DATA_DIR: dataDir,
      JWT_SECRET: "a-test-secret-that-is-long-enough-to-use"
    })
    try {
      expect(await readiness(server.port)).toMatchObject({ status: 200, json: { status: "ready" } })
      expect(server.output.join("\n")).toContain(`database: PostgreSQL server at 127.0.0.1:${proxy.port}/club_test_`)

      await proxy.stop()
      const down = await readiness(server.port)
      expect(down).toMatchObject({
        status: 503,
        json: { type: "about:blank", title: "Service Unavailable", status: 503, detail: "Database unreachable" }
      })
      expect(down.headers["content-type"]).toBe("application/problem+json")
      // Liveness is about the process, not its dependencies.
      expect((await http1(server.port, "/health/live")).status).toBe(200)

      await proxy.restart()
      const back = await eventually(async () => (await readiness(server.port)).status === 200, 15_000)
      expect(back).toBe(true)
    } finally {
      await server.stop()
      await proxy.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it("turns 503 when the database answers but the app's tables are out of its reach, as the requests fail", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "club-ready-"))
    const server = await startServer({
      DATABASE_URL: database!.url,
      DATA_DIR: dataDir,
      JWT_SECRET: "a-test-secret-that-is-long-enough-to-use"
    })
    // A login reads users: a wrong password is 401 while the table is in reach.
    const login = () =>
      fetch(`http://127.0.0.1:${server.port}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "admin", password: "not-the-admin-password" })
      })
    try {
      expect(await readiness(server.port)).toMatchObject({ status: 200 })
      expect((await login()).status).toBe(401)
      // `SELECT 1` still answers; a request that reads users does not.
      await run(database!.url, "ALTER TABLE users RENAME TO users_elsewhere")
      expect((await login()).status).toBeGreaterThanOrEqual(500)
      expect(await readiness(server.port)).toMatchObject({ status: 503, json: { detail: "Database unreachable" } })

      await run(database!.url, "ALTER TABLE users_elsewhere RENAME TO users")
      expect(await eventually(async () => (await readiness(server.port)).status === 200, 15_000)).toBe(true)
      expect((await login()).status).toBe(401)
    } finally {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
