import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, mainJs, messageOf, othersMayRun, spawnServer, type SpawnOptions } from "@club/test-support"

const database = await temporaryTestDatabase()
const folder = await mkdtemp(join(tmpdir(), "club-start-"))
afterAll(async () => {
  await database?.drop()
  await rm(folder, { recursive: true, force: true })
})

const secret = { JWT_SECRET: "start-failure-secret-start-failure-secret-0" }
const isRoot = process.getuid?.() === 0
/**
 * Root may write anywhere, so as root the server runs as nobody; that needs a checkout nobody may
 * pass through (a clone under a folder `mktemp -d` made, 0700, is not one), or there is nothing to run.
 */
const nobodyReachesTheServer = !isRoot || othersMayRun(dirname(mainJs))

/** Starts a server that cannot start; its exit, its standard error, and its JSON log's error lines. */
const failedStart = async (env: Record<string, string>, options: SpawnOptions = {}) => {
  const server = await spawnServer(env, options)
  const exit = await Promise.race([
    server.exited,
    new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 240_000))
  ])
  if (exit === "still running") await server.stop()
  const stderr = server.errorOutput.filter((line) => line.trim() !== "")
  const errors = server.logs().filter((line) => line.level === "ERROR").map(messageOf)
  return { exit, stderr, errors }
}

/** One line on stderr, the same as the JSON log's error message, and a failed exit. */
const expectOneLine = (failure: Awaited<ReturnType<typeof failedStart>>, reason: RegExp) => {
  expect(failure.exit).toMatchObject({ code: 1 })
  const lines = failure.stderr.filter((line) => line.startsWith("The server stopped: "))
  expect(lines, failure.stderr.join("\n")).toHaveLength(1)
  expect(lines[0]).toMatch(reason)
  expect(failure.errors).toEqual([lines[0]])
}

describe("a start that fails says why in one line, on stderr and in the JSON log, and exits 1", {
  timeout: 600_000
}, () => {
  it.skipIf(database === undefined)("a database that does not exist", async () => {
    const url = new URL(database!.url)
    url.pathname = "/club_not_created_yet"
    expectOneLine(
      await failedStart({ ...secret, DATABASE_URL: url.toString(), DATA_DIR: join(folder, "unused") }),
      /^The server stopped: database "club_not_created_yet" does not exist: create it first/u
    )
  })

  it.skipIf(database === undefined)("the port taken by another process", async () => {
    const port = await freePort()
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve))
    try {
      expectOneLine(
        await failedStart({ ...secret, PORT: String(port), DATABASE_URL: database!.url, ADMIN_PASSWORD: "admin-pw-0" }),
        new RegExp(`^The server stopped: the address 127\\.0\\.0\\.1:${port} is already in use`, "u")
      )
    } finally {
      holder.close()
    }
  })

  it.skipIf(!nobodyReachesTheServer)("a data directory that cannot be written", async () => {
    // A folder its user may not write in; root may write anywhere, so the server then runs as nobody.
    const parent = join(folder, "read-only")
    await chmod(folder, 0o755)
    await mkdir(parent)
    await chmod(parent, isRoot ? 0o755 : 0o555)
    const dataDir = join(parent, "data")
    expectOneLine(
      await failedStart({ DATA_DIR: dataDir }, isRoot ? { uid: 65534, gid: 65534 } : {}),
      new RegExp(`^The server stopped: ${dataDir} cannot be written \\((EACCES|EPERM)\\): DATA_DIR must be`, "u")
    )
  })
})
