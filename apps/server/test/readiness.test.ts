import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { http1 } from "./support/requests.ts"
import { eventually, startServer } from "@club/test-support"
import { startTcpProxy } from "./support/TcpProxy.ts"

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

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
})
