import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const node = `${repo}node_modules/.bin/node`
const main = `${repo}apps/server/dist/main.js`

export const ADMIN_NAME = "admin"
export const ADMIN_PASSWORD = "admin-password-for-tests"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(
        () => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
      )
    })
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface RunningServer {
  readonly baseUrl: string
  readonly stop: () => Promise<void>
}

/**
 * Starts the built server (embedded in-memory database) the way an operator would, with the
 * settings given on top, and waits until it answers.
 */
export const startServer = async (settings: Record<string, string> = {}): Promise<RunningServer> => {
  if (!existsSync(main)) {
    throw new Error(`${main} is missing: build it first with pnpm turbo run build --filter=@club/server...`)
  }
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const output: Array<string> = []
  const child: ChildProcess = spawn(node, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      ADMIN_NAME,
      ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
      ...settings
    },
    stdio: ["ignore", "pipe", "pipe"],
    // .bin/node is a shell shim that starts node as its child: signal the whole group, or node outlives the test.
    detached: true
  })
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, name)
      return true
    } catch {
      return false // the group is gone
    }
  }
  const stop = async () => {
    signal("SIGTERM")
    const deadline = Date.now() + 10_000
    while (signal(0) && Date.now() < deadline) await sleep(100)
    signal("SIGKILL")
  }

  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.join("")}`)
    const live = await fetch(`${baseUrl}/health/live`).then((response) => response.status, () => 0)
    if (live === 200) return { baseUrl, stop }
    await sleep(250)
  }
  await stop()
  throw new Error(`the server did not answer /health/live within 120 s:\n${output.join("")}`)
}
