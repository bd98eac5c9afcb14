// The server on the embedded database within 256 MiB (issue 40 item 7; docs/decisions/0332): with
// the arguments of `nodeArguments.smallMemory.json`, which `pnpm start`'s launcher adds on a host of
// little memory, a first start (a new cluster) and a restart each serve a small workload inside a
// memory cgroup of 256 MiB, swap included, and the kernel kills nothing. Linux, as root: skipped
// where no memory cgroup can be made.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import {
  eventually,
  freePort,
  inGroup,
  mainJs,
  memoryLimit,
  type ServerProcess,
  serverNodeArguments,
  spawnServer,
  waitUntilLive
} from "@club/test-support"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const smallMemoryArguments = JSON.parse(
  readFileSync(join(repo, "apps/server/nodeArguments.smallMemory.json"), "utf8")
) as ReadonlyArray<string>
const mib = 1024 * 1024
const admin = { name: "admin", password: "small-memory-admin-password" }
const secret = "small-memory-test-secret-small-memory-0123"
const canLimit = (() => {
  const probe = memoryLimit("club-probe", 256 * mib)
  probe?.remove()
  return probe !== undefined
})()

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

const send = async (port: number, method: string, path: string, token?: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000)
  })
  const text = await response.text()
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300)
  return text === "" ? undefined : JSON.parse(text) as Record<string, unknown>
}
const login = async (port: number, who: { name: string; password: string }) =>
  String((await send(port, "POST", "/auth/login", undefined, who))!["token"])

/** What a new user does first (the bench's small workload): a coach and its user, 50 sessions, the lists read. */
const smallWorkload = async (port: number, tag: string) => {
  const adminToken = await login(port, admin)
  const coach = await send(port, "POST", "/coaches/create", adminToken, { name: `Coach ${tag}` })
  const coachUser = { name: `coach-${tag}`, password: "small-memory-coach-password" }
  await send(port, "POST", "/users/create", adminToken, { ...coachUser, role: "COACH", coachId: coach!["id"] })
  const coachToken = await login(port, coachUser)
  for (let i = 0; i < 50; i++) await send(port, "POST", "/session/create", coachToken, { name: `Session ${i}` })
  for (let i = 0; i < 10; i++) {
    await send(port, "GET", "/session/all", coachToken)
    await send(port, "GET", "/users/all", adminToken)
    await send(port, "GET", "/all", adminToken)
  }
  const sessions = await fetch(`http://127.0.0.1:${port}/session/all`, {
    headers: { authorization: `Bearer ${coachToken}` }
  }).then((response) => response.json() as Promise<Array<unknown>>)
  return sessions.length
}

describe.skipIf(!canLimit)("the server on the embedded database within 256 MiB", { timeout: 600_000 }, () => {
  it("with the small-memory arguments: a first start and a restart each serve a small workload; nothing is killed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "club-small-memory-"))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    let sessions = 0
    for (const start of ["first", "restarted"]) {
      const limit = memoryLimit("club-server", 256 * mib)!
      let server: ServerProcess | undefined
      cleanups.push(() => {
        if (server?.child.exitCode === null) server.child.kill("SIGKILL")
      })
      server = await spawnServer(
        { DATA_DIR: dataDir, ADMIN_NAME: admin.name, ADMIN_PASSWORD: admin.password, JWT_SECRET: secret },
        { nodeArguments: smallMemoryArguments, cgroup: limit.path }
      )
      try {
        await waitUntilLive(server, 180_000)
        sessions += 50
        expect(await smallWorkload(server.port, start)).toBe(sessions)
        expect(limit.oomKills(), `${start}: killed for memory`).toBe(0)
        expect(await server.stop()).toEqual({ code: 0, signal: null })
      } finally {
        await server.stop()
        await eventually(async () => readFileSync(join(limit.path, "cgroup.procs"), "utf8").trim() === "", 10_000)
        limit.remove()
      }
    }
  })
})

/** The server the launcher started: its child running apps/server/dist/main.js. */
const serverUnder = (launcher: number) =>
  readdirSync("/proc").filter((name) => /^\d+$/u.test(name)).map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      return { parent, command: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((part) => part !== "") }
    } catch {
      return { parent: -1, command: [] }
    }
  }).find(({ command, parent }) => parent === launcher && command.some((part) => part.endsWith("dist/main.js")))

/** `node scripts/start.mjs --no-build` (pnpm start's launcher), in `cgroup` if given: the server's Node arguments. */
const launchedArguments = async (cgroup?: string) => {
  const port = await freePort()
  const [command, ...args] = inGroup([process.execPath, join(repo, "scripts/start.mjs"), "--no-build"], cgroup)
  const launcher: ChildProcess = spawn(command!, args, {
    cwd: repo,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: "memory://",
      ADMIN_NAME: admin.name,
      ADMIN_PASSWORD: admin.password,
      JWT_SECRET: secret,
      LOG_LEVEL: "warn"
    },
    stdio: "ignore"
  })
  try {
    let server: ReturnType<typeof serverUnder>
    expect(await eventually(async () => (server = serverUnder(launcher.pid!)) !== undefined, 60_000)).toBe(true)
    return server!.command
  } finally {
    launcher.kill("SIGTERM")
    await new Promise((resolve) => launcher.exitCode === null ? launcher.once("exit", resolve) : resolve(undefined))
  }
}

describe.skipIf(!canLimit)("pnpm start's launcher on a host of little memory", { timeout: 300_000 }, () => {
  it("adds the small-memory arguments under a memory limit below 1.5 GiB, and not without one", async () => {
    const limit = memoryLimit("club-launcher", 1024 * mib)!
    try {
      const limited = await launchedArguments(limit.path)
      expect(limited.slice(1)).toEqual([...serverNodeArguments, ...smallMemoryArguments, mainJs])
    } finally {
      await eventually(async () => readFileSync(join(limit.path, "cgroup.procs"), "utf8").trim() === "", 10_000)
      limit.remove()
    }
    if (totalmem() >= 1536 * mib) {
      const unlimited = await launchedArguments()
      expect(unlimited.filter((part) => smallMemoryArguments.includes(part))).toEqual([])
    }
  })
})
