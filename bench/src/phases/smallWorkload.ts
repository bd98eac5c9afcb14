import { join } from "node:path"
import { rmSync } from "node:fs"
import { freePort } from "@club/test-support"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { memoryOf } from "../process/memory.ts"
import { ensureDir, tmpDir } from "../process/paths.ts"
import { createUser, get, login } from "../servers/api.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { admin, type Database, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"

export interface SmallWorkloadRun {
  readonly database: "embedded" | "postgresql"
  /**
   * A new database's first start, or the same embedded database started again (what every later
   * start of a laptop's server is: no cluster to create).
   */
  readonly start?: "first" | "restarted"
  /** Resident memory when the workload is done, MiB. */
  readonly rssMiB: number
  /** The highest resident memory since the server started (VmHWM), its first start included, MiB. */
  readonly peakRssMiB: number
}

export const smallWorkloadSessions = 50

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

const measure = async (
  database: Database,
  name: SmallWorkloadRun["database"],
  start: NonNullable<SmallWorkloadRun["start"]>
): Promise<SmallWorkloadRun> => {
  const server = await startProject({ name: `project-small-${name}-${start}`, port: await freePort(), database })
  try {
    await workload(server, start)
    const { peakRssMiB, rssMiB } = memoryOf(server.child.pid)
    return { database: name, start, rssMiB, peakRssMiB }
  } finally {
    await server.child.stop()
  }
}

/**
 * The server's resident memory after a small workload, on a new embedded database (its first
 * start: the cluster is created in the process), on the same embedded database started again, and
 * on a new PostgreSQL database.
 */
export const smallWorkloadPhase = async (): Promise<ReadonlyArray<SmallWorkloadRun>> => {
  const dataDir = ensureDir(join(tmpDir, "small-workload-data"))
  let embedded: ReadonlyArray<SmallWorkloadRun>
  try {
    const first = await measure({ kind: "embedded", dataDir }, "embedded", "first")
    embedded = [first, await measure({ kind: "embedded", dataDir }, "embedded", "restarted")]
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  const database = await createTemporaryDatabase(settings.serverUrl, "small")
  try {
    const postgresql = await measure({ kind: "server", url: database.url }, "postgresql", "first")
    return [...embedded, postgresql]
  } finally {
    await database.drop()
  }
}
