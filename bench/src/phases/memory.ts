import { performance } from "node:perf_hooks"
import { runSql } from "../database/runSql.ts"
import { addPeople, addSessions, settle } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { freePort } from "@club/test-support"
import { memoryOf } from "../process/memory.ts"
import { login } from "../servers/api.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { startBaseline, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"

export interface ListingRun {
  /** Resident memory of the idle server just before the requests, MiB. */
  readonly idleRssMiB: number
  /** The server's highest resident memory since it started (VmHWM), MiB. */
  readonly peakRssMiB: number
  /** Wall time of each request, first byte sent to last byte read, ms. */
  readonly timesMs: ReadonlyArray<number>
  readonly medianMs: number
  readonly bytes: number
}

export interface ListingStep {
  readonly sessions: number
  readonly project: ListingRun
  readonly baseline: ListingRun
}

const requestsPerStep = 3

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** GET /session/all a few times in a row; the first answer is parsed to check it holds every session. */
const listAll = async (server: ServerProcess, token: string, expected: number): Promise<ListingRun> => {
  const idleRssMiB = memoryOf(server.child.pid).rssMiB
  const timesMs: Array<number> = []
  let bytes = 0
  for (let i = 0; i < requestsPerStep; i++) {
    const start = performance.now()
    const response = await fetch(`${server.url}/session/all`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(300_000)
    })
    const body = Buffer.from(await response.arrayBuffer())
    timesMs.push(performance.now() - start)
    if (!response.ok) throw new Error(`${server.name} GET /session/all: ${response.status}`)
    bytes = body.length
    if (i === 0) {
      const count = (JSON.parse(body.toString("utf8")) as Array<unknown>).length
      if (count !== expected) throw new Error(`${server.name} listed ${count} sessions, ${expected} exist`)
    }
  }
  return { idleRssMiB, peakRssMiB: memoryOf(server.child.pid).peakRssMiB, timesMs, medianMs: median(timesMs), bytes }
}

/**
 * `GET /session/all` at growing numbers of sessions (each with 10 athletes and 5 activities), on a
 * server started afresh for every size, so that its peak resident memory (VmHWM) is that of the
 * listing and not of an earlier, smaller one.
 */
export const memoryPhase = async (): Promise<ReadonlyArray<ListingStep>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "memory")
  try {
    const start = async () =>
      startProject({ name: "project-memory", port: await freePort(), database: { kind: "server", url: database.url } })
    let project = await start()
    const people = await runSql(database.url, (sql) => addPeople(sql, settings.dataSet))
    const { login: coach } = await prepareCallers(project.url, { ...people, sessions: { min: 0, max: 0 } })
    await project.child.stop()

    const steps: Array<ListingStep> = []
    let sessions = 0
    for (const target of settings.memorySteps) {
      await runSql(database.url, (sql) => addSessions(sql, target - sessions, people))
      await runSql(database.url, settle)
      sessions = target

      project = await start()
      const projectRun = await listAll(project, await login(project.url, coach), sessions)
      await project.child.stop()

      const baseline = await startBaseline({ port: await freePort(), databaseUrl: database.url })
      const baselineRun = await listAll(baseline, "", sessions)
      await baseline.child.stop()

      console.log(
        `  ${String(sessions).padStart(7)} sessions: project ${projectRun.medianMs.toFixed(0)} ms, peak ${
          projectRun.peakRssMiB.toFixed(0)
        } MiB;` +
          ` (idle ${projectRun.idleRssMiB.toFixed(0)}); baseline ${baselineRun.medianMs.toFixed(0)} ms, peak ${
            baselineRun.peakRssMiB.toFixed(0)
          } MiB; ${(projectRun.bytes / 1e6).toFixed(1)} MB`
      )
      steps.push({ sessions, project: projectRun, baseline: baselineRun })
    }
    return steps
  } finally {
    await database.drop()
  }
}
