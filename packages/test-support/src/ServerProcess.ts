import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import * as Http from "node:http"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { freePort } from "./freePort.ts"
import { inGroup } from "./memoryLimit.ts"
import { nodeForAnyUser } from "./nodeForAnyUser.ts"

/** The built server, from this package's `src/` or `dist/` alike. */
export const mainJs = fileURLToPath(new URL("../../../apps/server/dist/main.js", import.meta.url))

/**
 * The arguments Node is started with before the server's script, as every launch of it has them
 * (apps/server/nodeArguments.json; docs/DECISIONS.md "The server's Node arguments").
 */
export const serverNodeArguments: ReadonlyArray<string> = JSON.parse(
  readFileSync(new URL("../../../apps/server/nodeArguments.json", import.meta.url), "utf8")
) as ReadonlyArray<string>

/** The variables of CONTRACT.md: the tests set them, never inherit them. */
const configuration = [
  "PORT",
  "HOST",
  "DATABASE_URL",
  "DATA_DIR",
  "JWT_SECRET",
  "TOKEN_TTL_SECONDS",
  "ADMIN_NAME",
  "ADMIN_PASSWORD",
  "LOG_LEVEL",
  "LOGIN_FREE_FAILURES_PER_NAME_AND_ADDRESS",
  "LOGIN_FREE_FAILURES_PER_ADDRESS",
  "LOGIN_FIRST_DELAY_SECONDS",
  "LOGIN_MAX_DELAY_SECONDS",
  "LOGIN_FAILURE_WINDOW_SECONDS",
  "TRUSTED_PROXIES",
  "CORS_ORIGINS",
  "IDEMPOTENCY_KEY_RETENTION_SECONDS",
  "METRICS",
  "METRICS_PORT",
  "METRICS_HOST",
  "CLUB_LANGUAGE",
  "PUBLIC_URL"
]

/**
 * OpenTelemetry's variables (tracing), the relay's (an inherited SMTP_URL would turn mail on) and the
 * notices' settings: the tests set them, never inherit them.
 */
const isSetByTestsOnly = (name: string) =>
  name.startsWith("OTEL_") || name.startsWith("SMTP_") || name.startsWith("NOTICE_")

export interface LogLine {
  readonly message: unknown
  readonly level: string
  readonly annotations: Record<string, unknown>
  readonly cause?: string
}

export interface ServerProcess {
  readonly port: number
  readonly child: ChildProcess
  /** Every stdout and stderr line, as printed. */
  readonly output: Array<string>
  /** Every stderr line, as printed. */
  readonly errorOutput: Array<string>
  readonly logs: () => Array<LogLine>
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** Sends SIGTERM and waits for the exit. */
  readonly stop: () => Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

export const messageOf = (line: LogLine): string =>
  Array.isArray(line.message) ? line.message.join(" ") : String(line.message)

const parseLines = (lines: Array<string>): Array<LogLine> =>
  lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine]
    } catch {
      return []
    }
  })

export interface SpawnOptions {
  /** Another build of the server to run (a laid-out copy, as in the container image). */
  readonly main?: string
  /** Run as this OS user and group (root only). */
  readonly uid?: number
  readonly gid?: number
  /** More Node arguments, after the server's own (`nodeArguments.smallMemory.json`'s, say). */
  readonly nodeArguments?: ReadonlyArray<string>
  /** A cgroup (its folder) the process joins before Node starts: `memoryLimit`'s. */
  readonly cgroup?: string
}

/**
 * Runs the built server (`apps/server/dist/main.js`) on the Node running this process (the
 * workspace's pinned one under its scripts), with the given configuration and none inherited.
 */
export const spawnServer = async (env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> => {
  const main = options.main ?? mainJs
  if (!existsSync(main)) throw new Error(`${main} is missing: run pnpm --filter @club/server build`)
  const port = env["PORT"] === undefined ? await freePort() : Number(env["PORT"])
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !configuration.includes(name) && !isSetByTestsOnly(name))
  )
  // Another user may not reach the Node of a private checkout.
  const node = options.uid === undefined ? process.execPath : nodeForAnyUser()
  const [command, ...args] = inGroup(
    [node, ...serverNodeArguments, ...(options.nodeArguments ?? []), main],
    options.cgroup
  )
  const child = spawn(command!, args, {
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid })
  })
  const output: Array<string> = []
  let pending = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n")
    pending = lines.pop() ?? ""
    output.push(...lines)
  })
  const errorOutput: Array<string> = []
  // Whole lines, as on standard output: a line written in one piece may arrive in two chunks.
  let pendingError = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (pendingError + chunk).split("\n")
    pendingError = lines.pop() ?? ""
    output.push(...lines)
    errorOutput.push(...lines)
  })
  // A last line without its newline (a process that died mid-write) is still output.
  child.stderr!.on("end", () => {
    if (pendingError !== "") {
      output.push(pendingError)
      errorOutput.push(pendingError)
      pendingError = ""
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  return {
    port,
    child,
    output,
    errorOutput,
    logs: () => parseLines(output),
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      return exited
    }
  }
}

/** The status of `GET /health/live`, on a connection of its own (closed with the answer, so none lingers). */
const liveStatus = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = Http.get({ host: "127.0.0.1", port, path: "/health/live", agent: false }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    request.on("error", reject)
  })

/** What the server prints on standard error once it listens (apps/server's `readyNotice`). */
export const readyLine = "Club Training Service is ready"

/**
 * Waits until the server says it is ready and `/health/live` answers 200; fails with the server's
 * output if it exits or takes too long. The port was free when `freePort` chose it, but another
 * process may take it before this one listens: a 200 alone may then be that other process's, and
 * the server's own line, printed only once it holds the port, is what says the answer is its own.
 */
export const waitUntilLive = async (server: ServerProcess, timeoutMs = 90_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  let exited = false
  void server.exited.then(() => (exited = true))
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server exited before it was live:\n${server.output.join("\n")}`)
    if (server.errorOutput.includes(readyLine) && await liveStatus(server.port).catch(() => 0) === 200) return
    await sleep(100)
  }
  throw new Error(`The server was not live within ${timeoutMs} ms:\n${server.output.join("\n")}`)
}

/** Spawns the server and waits until it is live; stops it if it never is. */
export const startServer = async (env: Record<string, string>): Promise<ServerProcess> => {
  const server = await spawnServer(env)
  try {
    await waitUntilLive(server)
  } catch (error) {
    await server.stop()
    throw error
  }
  return server
}
