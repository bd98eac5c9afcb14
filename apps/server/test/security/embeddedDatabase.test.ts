import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { listeningSockets } from "../support/listeningSockets.ts"
import { type ServerProcess, startServer } from "@club/test-support"

const running: Array<ServerProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()))
})
const start = async (env: Record<string, string>) => {
  const server = await startServer({ ADMIN_PASSWORD: "embedded-admin-password", ...env })
  running.push(server)
  return server
}

const dataDirs: Array<string> = []
afterAll(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))))
const freshParent = async () => {
  const dir = await mkdtemp(join(tmpdir(), "club-private-"))
  dataDirs.push(dir)
  return dir
}

/** Every path below `root` (itself included) whose mode lets anyone but its owner in. */
const openToOthers = async (root: string): Promise<Array<string>> => {
  const info = await lstat(root)
  const here = !info.isSymbolicLink() && (info.mode & 0o077) !== 0 ? [`${(info.mode & 0o777).toString(8)} ${root}`] : []
  if (!info.isDirectory()) return here
  const below = await Promise.all((await readdir(root)).map((entry) => openToOthers(join(root, entry))))
  return here.concat(below.flat())
}

describe("the embedded database is the server's alone", { timeout: 180_000 }, () => {
  for (const where of ["memory://", "a DATA_DIR on disk"] as const) {
    it(`listens on no TCP port but the service's and on no Unix socket: no other client can reach it (${where})`, async () => {
      const dataDir = where === "memory://" ? where : join(await freshParent(), "data")
      const server = await start({ DATA_DIR: dataDir })
      // PGlite is one session shared by every connection, with no authentication: a client that
      // could connect (pg_dump's first statement empties search_path) would break every request.
      // The server reaches it by connections inside its own process.
      const { tcpPorts, unixPaths } = listeningSockets(server.child.pid!)
      expect(tcpPorts).toEqual([server.port])
      expect(unixPaths).toEqual([])
    })
  }

  it("keeps DATA_DIR and every file in it owner-only, an older, open data directory included", async () => {
    const dataDir = join(await freshParent(), "data")
    // As an earlier version left it: an open folder with an open file (umask 022, PGlite's 0666).
    await mkdir(join(dataDir, "postgres"), { recursive: true, mode: 0o755 })
    await chmod(dataDir, 0o755)
    await writeFile(join(dataDir, "notes.txt"), "left by an operator", { mode: 0o666 })
    await chmod(join(dataDir, "notes.txt"), 0o666)
    const server = await start({ DATA_DIR: dataDir })
    expect(await openToOthers(dataDir)).toEqual([])
    // Writes made while serving (a user, its password hash) stay private too.
    const login = await fetch(`http://127.0.0.1:${server.port}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "admin", password: "embedded-admin-password" })
    })
    const { token } = (await login.json()) as { token: string }
    const created = await fetch(`http://127.0.0.1:${server.port}/users/create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "private-coach", role: "COACH", password: "coach-password-1" })
    })
    expect(created.status).toBe(201)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(await openToOthers(dataDir)).toEqual([])
  })
})
