import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { openSync, closeSync } from "node:fs"
import { registerCleanup, registerExitKill } from "./cleanup.ts"

export interface ChildGroup {
  /** The child's pid; also its process group id, as it leads a group of its own. */
  readonly pid: number
  readonly process: ChildProcess
  /** Resolves with the exit code (or signal) once the child has exited. */
  readonly exited: Promise<number | string>
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader has exited. */
  readonly stop: (graceMs?: number) => Promise<void>
}

export interface ChildOptions {
  readonly name: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  /** stdout and stderr go to this file; without it they are discarded. */
  readonly logFile?: string
  /** Keep stdout as a pipe (for a child that reports on it). */
  readonly pipeStdout?: boolean
}

const killGroup = (pid: number, signal: NodeJS.Signals) => {
  if (process.env["BENCH_DEBUG"]) console.error("kill", -pid, signal, new Error().stack)
  try {
    process.kill(-pid, signal)
  } catch {
    // The group is already gone.
  }
}

/**
 * Starts a process as the leader of a new process group (`detached`), so that stopping it also
 * stops whatever it spawned (a shell wrapper's node, PostgreSQL tools, ...).
 */
export const startChild = (options: ChildOptions): ChildGroup => {
  const log = options.logFile === undefined ? "ignore" : openSync(options.logFile, "a")
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ["ignore", options.pipeStdout === true ? "pipe" : log, log]
  })
  if (typeof log === "number") closeSync(log)
  if (child.pid === undefined) throw new Error(`${options.name} did not start`)
  const pid = child.pid
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"))
  })
  let alive = true
  void exited.then(() => {
    alive = false
    // The leader is gone; anything it left in its group goes too.
    killGroup(pid, "SIGKILL")
  })

  const unregisterExitKill = registerExitKill(() => killGroup(pid, "SIGKILL"))
  const stop = async (graceMs = 10_000) => {
    if (alive) {
      killGroup(pid, "SIGTERM")
      const timer = setTimeout(() => killGroup(pid, "SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }
    killGroup(pid, "SIGKILL")
    unregisterCleanup()
    unregisterExitKill()
  }
  const unregisterCleanup = registerCleanup(`stop ${options.name}`, () => stop())
  return { pid, process: child, exited, stop }
}

/** Runs a child to completion (bounded by `timeoutMs`) and returns what it wrote on stdout. */
export const runChild = async (options: ChildOptions & { readonly timeoutMs: number }): Promise<string> => {
  const child = startChild({ ...options, pipeStdout: true })
  const chunks: Array<Buffer> = []
  child.process.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk))
  const timer = setTimeout(() => void child.stop(2_000), options.timeoutMs)
  const [code] = await Promise.all([child.exited, once(child.process.stdout!, "close")])
  clearTimeout(timer)
  await child.stop()
  if (code !== 0) throw new Error(`${options.name} exited with ${code}`)
  return Buffer.concat(chunks).toString("utf8")
}
