import { join } from "node:path"
import { rmSync } from "node:fs"
import { freePort, memoryLimit } from "@club/test-support"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { memoryOf } from "../process/memory.ts"
import { ensureDir, tmpDir } from "../process/paths.ts"
import { createUser, get, login } from "../servers/api.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { admin, type Database, smallMemoryArguments, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"

export interface SmallWorkloadRun {
  readonly database: "embedded" | "postgresql"
  /**
   * A new database's first start, or the same embedded database started again (what every later
   * start of a laptop's server is: no cluster to create).
   */
  readonly start?: "first" | "restarted"
  /**
   * Node's arguments: the server's own, or with those `pnpm start` adds on a host of little memory
   * (`nodeArguments.smallMemory.json`). Absent in runs of an earlier bench: the server's own.
   */
  readonly arguments?: "default" | "small memory"
  /**
   * Run inside a memory cgroup of this many MiB, swap included (a container's `--memory`), where
   * the kernel reclaims page cache (the `node` binary's pages among it) before it kills.
   */
  readonly limitMiB?: number
  /** Inside a limit: whether the server served the whole workload and nothing was killed. */
  readonly withinLimit?: boolean
  /** Resident memory when the workload is done, MiB (0 where the server did not live to the end). */
  readonly rssMiB: number
  /** The highest resident memory since the server started (VmHWM), its first start included, MiB. */
  readonly peakRssMiB: number
}

/** The limit the issue asks the embedded database to run in (issue 40 item 7). */
export const smallHostMiB = 256

export const smallWorkloadSessions = 50

const canLimitMemory = () => {
  const probe = memoryLimit("club-bench-probe", smallHostMiB * 1024 * 1024)
  probe?.remove()
  return probe !== undefined
}

const post = async (url: string, token: string, body: unknown): Promise<{ readonly id: number }> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000)
  })
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as { readonly id: number }
}

/**
 * What a new user does first: log in, make a coach and its user, create 50 sessions, read the lists
 * a few times. `tag` names the coach, so that a restarted server's run makes a user of its own.
 */
const workload = async (server: ServerProcess, tag: string) => {
  const adminToken = await login(server.url, admin)
  const coachRecord = await post(`${server.url}/coaches/create`, adminToken, { name: `Memory coach ${tag}` })
  const coach = { name: `memory-coach-${tag}`, password: "memory-coach-password" }
  await createUser(server.url, adminToken, { ...coach, role: "COACH", coachId: coachRecord.id })
  const coachToken = await login(server.url, coach)
  for (let i = 0; i < smallWorkloadSessions; i++) {
    await post(`${server.url}/session/create`, coachToken, { name: `Session ${i}` })
  }
  for (let i = 0; i < 10; i++) {
    await get(`${server.url}/session/all`, coachToken)
    await get(`${server.url}/users/all`, adminToken)
    await get(`${server.url}/all`, adminToken)
  }
}

interface RunOptions {
  readonly arguments: NonNullable<SmallWorkloadRun["arguments"]>
  /** Inside a memory cgroup of `smallHostMiB`, where one can be made (Linux, root). */
  readonly limited: boolean
}

const measure = async (
  database: Database,
  name: SmallWorkloadRun["database"],
  start: NonNullable<SmallWorkloadRun["start"]>,
  options: RunOptions = { arguments: "default", limited: false }
): Promise<SmallWorkloadRun> => {
  const tag = `${name}-${start}${options.arguments === "default" ? "" : "-small"}${options.limited ? "-limited" : ""}`
  const limit = options.limited ? memoryLimit("club-bench", smallHostMiB * 1024 * 1024) : undefined
  if (options.limited && limit === undefined) throw new Error("no memory cgroup can be made here")
  const described = { database: name, start, arguments: options.arguments }
  try {
    const server = await startProject({
      name: `project-small-${tag}`,
      port: await freePort(),
      database,
      ...(options.arguments === "default" ? {} : { nodeArgs: smallMemoryArguments() }),
      ...(limit === undefined ? {} : { cgroup: limit.path })
    })
    try {
      await workload(server, tag)
      const { peakRssMiB, rssMiB } = memoryOf(server.child.pid)
      return {
        ...described,
        rssMiB,
        peakRssMiB,
        ...(limit === undefined ? {} : { limitMiB: smallHostMiB, withinLimit: limit.oomKills() === 0 })
      }
    } finally {
      await server.child.stop()
    }
  } catch (error) {
    // Killed for memory inside the limit (or too slow to start there): that is the finding.
    if (limit === undefined) throw error
    return { ...described, rssMiB: 0, peakRssMiB: 0, limitMiB: smallHostMiB, withinLimit: false }
  } finally {
    limit?.remove()
  }
}

/** A first start on a new embedded database, then the same database restarted. */
const firstAndRestarted = async (options?: RunOptions): Promise<ReadonlyArray<SmallWorkloadRun>> => {
  const dataDir = ensureDir(join(tmpDir, "small-workload-data"))
  try {
    const first = await measure({ kind: "embedded", dataDir }, "embedded", "first", options)
    return [first, await measure({ kind: "embedded", dataDir }, "embedded", "restarted", options)]
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The server's resident memory after a small workload, on a new embedded database (its first
 * start) and on the same embedded database started again, with the server's own Node arguments
 * and with the small-memory ones, the latter also inside a memory cgroup of 256 MiB where one can
 * be made; and on a new PostgreSQL database.
 */
export const smallWorkloadPhase = async (): Promise<ReadonlyArray<SmallWorkloadRun>> => {
  const embedded = [
    ...await firstAndRestarted(),
    ...await firstAndRestarted({ arguments: "small memory", limited: false }),
    ...(canLimitMemory() ? await firstAndRestarted({ arguments: "small memory", limited: true }) : [])
  ]
  const database = await createTemporaryDatabase(settings.serverUrl, "small")
  try {
    const postgresql = await measure({ kind: "server", url: database.url }, "postgresql", "first")
    return [...embedded, postgresql]
  } finally {
    await database.drop()
  }
}
