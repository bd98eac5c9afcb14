import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { eventually, freePort } from "@club/test-support"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))

/** pnpm's own script: the one running these tests, or the one on PATH (npx puts it there). */
const pnpm = (() => {
  const running = process.env["npm_execpath"]
  if (running !== undefined && /pnpm\.c?js$/u.test(running)) return running
  for (const folder of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(folder, "pnpm")
    if (folder !== "" && existsSync(candidate)) return realpathSync(candidate)
  }
  return undefined
})()

// A server on PostgreSQL starts faster than one that creates an embedded cluster.
const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}
const commandLineOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()
  } catch {
    return ""
  }
}
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The process and its descendants, parent before child (`pnpm start` makes a chain: one child each). */
const chainFrom = (pid: number): Array<{ pid: number; command: string }> => {
  const all = readdirSync("/proc").filter((name) => /^\d+$/u.test(name)).map(Number)
  const chain = [{ pid, command: commandLineOf(pid) }]
  for (;;) {
    const last = chain[chain.length - 1]!.pid
    const child = all.find((candidate) => parentOf(candidate) === last)
    if (child === undefined) return chain
    chain.push({ pid: child, command: commandLineOf(child) })
  }
}

const started: Array<ChildProcess> = []
let serverPid: number | undefined
afterEach(() => {
  // A server left behind by a failed case is stopped by its own pid, never by name.
  if (serverPid !== undefined && isAlive(serverPid)) process.kill(serverPid, "SIGKILL")
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL")
})

/**
 * `pnpm start --no-build` (the built server, as `pnpm start` runs it after its build), live; with
 * `pnpmAt`, pnpm is run by that path (a link to its script, as npx's `node_modules/.bin/pnpm`).
 */
const startChain = (pnpmAt: string = pnpm!, node: string = process.execPath) =>
  startCommand(node, [pnpmAt, "--silent", "start", "--no-build"])

/** `command` with `args`, which starts the server, in the repository; live. */
const startCommand = async (command: string, args: ReadonlyArray<string>) => {
  const port = await freePort()
  const child = spawn(command, args, {
    cwd: repo,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: database!.url,
      DATA_DIR: "memory://",
      JWT_SECRET: "signal-test-secret-signal-test-secret-0123",
      LOG_LEVEL: "info"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  let output = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  const live = await eventually(
    async () => (await fetch(`http://127.0.0.1:${port}/health/live`).catch(() => undefined))?.status === 200,
    120_000
  )
  expect(live, output).toBe(true)
  const chain = chainFrom(child.pid!)
  const server = chain[chain.length - 1]!
  expect(server.command).toContain("apps/server/dist/main.js")
  serverPid = server.pid
  return { chain, server, output: () => output, port }
}

/** SIGTERM to `target`, then the server drains (its own shutdown, not a kill) and every process of the chain ends. */
const expectStoppedBy = async (
  run: Awaited<ReturnType<typeof startCommand>>,
  target: { pid: number; command: string }
) => {
  process.kill(target.pid, "SIGTERM")
  const gone = await eventually(async () => !isAlive(run.server.pid), 30_000)
  expect(gone, `SIGTERM to ${target.command} left the server running:\n${run.output()}`).toBe(true)
  expect(run.output(), target.command).toContain("Shutting down")
  for (const { pid } of run.chain) {
    expect(await eventually(async () => !isAlive(pid), 10_000), `${commandLineOf(pid)} left running`).toBe(true)
  }
}

describe.skipIf(pnpm === undefined || database === undefined)("a supervisor's SIGTERM stops the server", {
  timeout: 900_000
}, () => {
  it("sent to any process of `pnpm start`'s chain: pnpm, its shells, node_modules/.bin/node, the launcher", async () => {
    let run = await startChain()
    const { chain } = run
    // pnpm, then the script's shell and the .bin/node wrapper (shell scripts), the launcher, the server.
    expect(chain[0]!.command).toContain(pnpm)
    expect(chain.some((process) => process.command.includes("node_modules/.bin/node"))).toBe(true)
    expect(chain.some((process) => process.command.includes("scripts/start.mjs"))).toBe(true)

    for (let position = 0; position < chain.length - 1; position++) {
      if (position > 0) run = await startChain()
      await expectStoppedBy(run, run.chain[position]!)
    }
  })

  it("sent to pnpm run by a link to its script, as `npx pnpm start` runs it", async () => {
    // npx runs pnpm as node_modules/.bin/pnpm, a link: pnpm's npm_execpath is then the script's real
    // path, which its command line does not hold.
    const links = mkdtempSync(join(tmpdir(), "pnpm-link-"))
    try {
      const link = join(links, "pnpm")
      symlinkSync(pnpm!, link)
      const run = await startChain(link)
      expect(run.chain[0]!.command).toContain(link)
      await expectStoppedBy(run, run.chain[0]!)
    } finally {
      rmSync(links, { recursive: true, force: true })
    }
  })

  it("sent to the node_modules/.bin/node shell that runs pnpm, as npx in this checkout runs it", async () => {
    const wrapper = join(repo, "node_modules", ".bin", "node")
    const run = await startChain(pnpm!, wrapper)
    expect(run.chain[0]!.command).toContain("node_modules/.bin/node")
    await expectStoppedBy(run, run.chain[0]!)
  })

  it("sent to npx (`npm exec pnpm@...`) or the `sh -c 'pnpm'` shell it runs pnpm in, as the README's `npx pnpm start`", async () => {
    // The README's own command, pnpm at the version the repository pins (npx's cache holds it: CI runs it).
    const { packageManager } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
      packageManager: string
    }
    const npxArguments = ["exec", "--yes", packageManager, "--", "--silent", "start", "--no-build"]
    // Each process from the top down to npx's shell: under pnpm's test run, npm's `env node` finds the
    // node_modules/.bin/node wrapper first, then npx (by its title), the shell it runs the command in.
    let run = await startCommand("npm", npxArguments)
    const npx = run.chain.findIndex((process) => process.command.startsWith("npm exec "))
    const shell = run.chain.findIndex((process) => process.command.startsWith("sh -c 'pnpm'"))
    expect(npx, run.chain.map((process) => process.command).join("\n")).toBeGreaterThanOrEqual(0)
    expect(shell).toBe(npx + 1)
    for (let position = 0; position <= shell; position++) {
      if (position > 0) run = await startCommand("npm", npxArguments)
      await expectStoppedBy(run, run.chain[position]!)
    }
  })
})
