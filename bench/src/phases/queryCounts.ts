import { setTimeout as sleep } from "node:timers/promises"
import { Effect } from "effect"
import { runSql } from "../database/runSql.ts"
import { seed, type Seeded } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { freePort } from "@club/test-support"
import { startStatementCounter, type StatementCounter } from "../queries/StatementCounter.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { startBaseline, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"

/** The rows a probe's "small" and "large" requests touch. */
interface Fixtures {
  readonly smallSession: number
  readonly largeSession: number
  readonly casualAthlete: number
  readonly busyAthlete: number
  readonly allAthletes: ReadonlyArray<number>
}

interface ProbeRequest {
  readonly method: string
  readonly path: string
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

interface Probe {
  readonly title: string
  /** A write: issue 16 bounds its statements at the baseline's + 1. */
  readonly write: boolean
  readonly small: (f: Fixtures) => ProbeRequest
  readonly large: (f: Fixtures) => ProbeRequest
}

const activityOf = (sessionId: number) => ({
  name: "Probe drill",
  theme: "endurance",
  duree: 20,
  dataActivite: ["cones"],
  sessionId
})

const createTask: ProbeRequest = {
  method: "POST",
  path: "/todo.TodoService/CreateTask",
  body: { title: "Probe task", description: "" },
  headers: { "connect-protocol-version": "1" }
}

export const relatedRows = { small: 10, large: 1_000 } as const

const probes: ReadonlyArray<Probe> = [
  {
    title: "GET /session/{id} (10 vs 1,000 athletes, and as many activities)",
    write: false,
    small: (f) => ({ method: "GET", path: `/session/${f.smallSession}` }),
    large: (f) => ({ method: "GET", path: `/session/${f.largeSession}` })
  },
  {
    title: "GET /athletes/athletes/{id}/session/between/… (athlete in 10 vs 1,000 sessions)",
    write: false,
    small: (f) => ({
      method: "GET",
      path: `/athletes/athletes/${f.casualAthlete}/session/between/2025-12-31/2027-01-01`
    }),
    large: (f) => ({ method: "GET", path: `/athletes/athletes/${f.busyAthlete}/session/between/2025-12-31/2027-01-01` })
  },
  {
    title: "PUT /session/update/{id} (10 vs 1,000 athleteIds)",
    write: true,
    small: (f) => ({
      method: "PUT",
      path: `/session/update/${f.smallSession}`,
      body: { duree: 45, athleteIds: f.allAthletes.slice(0, 10) }
    }),
    large: (f) => ({
      method: "PUT",
      path: `/session/update/${f.largeSession}`,
      body: { duree: 45, athleteIds: f.allAthletes }
    })
  },
  {
    title: "POST /session/create (10 vs 1,000 athleteIds)",
    write: true,
    small: (f) => ({
      method: "POST",
      path: "/session/create",
      body: { name: "Probe", athleteIds: f.allAthletes.slice(0, 10) }
    }),
    large: (f) => ({ method: "POST", path: "/session/create", body: { name: "Probe", athleteIds: f.allAthletes } })
  },
  {
    title: "POST /activite/create (into a session of 10 vs 1,000 activities)",
    write: true,
    small: (f) => ({ method: "POST", path: "/activite/create", body: activityOf(f.smallSession) }),
    large: (f) => ({ method: "POST", path: "/activite/create", body: activityOf(f.largeSession) })
  },
  {
    title: "Connect CreateTask (no related rows: the same call twice)",
    write: true,
    small: () => createTask,
    large: () => createTask
  }
]

export interface ProbeCount {
  readonly title: string
  readonly write: boolean
  readonly project: { readonly small: number; readonly large: number }
  readonly baseline: { readonly small: number; readonly large: number }
  /** The project's statements for the small request, for the report's details. */
  readonly projectStatements: ReadonlyArray<string>
}

/** A session with 1,000 athletes and 1,000 activities, an athlete in 10 sessions and one in 1,000. */
const addFixtures = (url: string, seeded: Seeded): Promise<Fixtures> =>
  runSql(url, (sql) =>
    Effect.gen(function*() {
      const id = (rows: ReadonlyArray<{ readonly id: unknown }>) => Number(rows[0]!.id)
      const largeSession = id(
        yield* sql<{ id: unknown }>`INSERT INTO sessions (name, creneau, duree, coach_id)
        VALUES ('Large session', '2026-03-02 10:00:00', 60, ${seeded.coaches.min}) RETURNING id`
      )
      yield* sql`INSERT INTO session_athletes (session_id, athlete_id) SELECT ${largeSession}, id FROM athletes`
      yield* sql`INSERT INTO activities (name, session_id)
        SELECT 'Large activity ' || g, ${largeSession} FROM generate_series(1, ${relatedRows.large}) AS g`
      const casualAthlete = id(yield* sql<{ id: unknown }>`INSERT INTO athletes (name) VALUES ('Casual') RETURNING id`)
      const busyAthlete = id(yield* sql<{ id: unknown }>`INSERT INTO athletes (name) VALUES ('Busy') RETURNING id`)
      for (const [athlete, count] of [[casualAthlete, relatedRows.small], [busyAthlete, relatedRows.large]] as const) {
        yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
          SELECT id, ${athlete} FROM sessions WHERE id BETWEEN ${seeded.sessions.min} AND ${
          seeded.sessions.min + count - 1
        }`
      }
      const athletes = yield* sql<
        { id: unknown }
      >`SELECT id FROM athletes WHERE id BETWEEN ${seeded.athletes.min} AND ${seeded.athletes.max} ORDER BY id`
      return {
        smallSession: seeded.sessions.min,
        largeSession,
        casualAthlete,
        busyAthlete,
        allAthletes: athletes.slice(0, relatedRows.large).map((row) => Number(row.id))
      }
    }))

const send = async (server: ServerProcess, token: string, request: ProbeRequest) => {
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...request.headers },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(30_000)
  })
  await response.arrayBuffer()
  if (!response.ok) throw new Error(`${request.method} ${request.path}: ${response.status}`)
}

/**
 * The statements one request executes. Sent once before, so that nothing first-time (a pool
 * connection opening) is counted; then, for the project, after its cache of the caller's
 * credentials has expired, so the count includes the authentication lookup a request can need.
 */
const countOne = async (
  server: ServerProcess,
  counter: StatementCounter,
  token: string,
  request: ProbeRequest,
  coldAuth: boolean
) => {
  await send(server, token, request)
  if (coldAuth) await sleep(1_100)
  counter.reset()
  await send(server, token, request)
  return counter.statements()
}

/**
 * Statements per request, counted on the wire by a proxy in front of PostgreSQL, for requests that
 * touch 10 and 1,000 related rows: the project's and the baseline's, through the same proxy.
 */
export const queryCountPhase = async (): Promise<ReadonlyArray<ProbeCount>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "queries")
  // A proxy for each server, so that neither counts the other's statements; and the project's
  // webhook poll (a statement a second) and its retention purge made rare, so that neither lands in a
  // request's count.
  const projectCounter = await startStatementCounter(settings.serverUrl)
  const baselineCounter = await startStatementCounter(settings.serverUrl)
  try {
    const project = await startProject({
      name: "project-counted",
      port: await freePort(),
      database: { kind: "server", url: projectCounter.url(database.url) },
      env: { WEBHOOK_POLL_MS: String(3_600_000), RETENTION_INTERVAL_SECONDS: String(360_000) }
    })
    const seeded = await runSql(database.url, (sql) => seed(sql, settings.dataSet))
    const fixtures = await addFixtures(database.url, seeded)
    const baseline = await startBaseline({ port: await freePort(), databaseUrl: baselineCounter.url(database.url) })
    const { token } = await prepareCallers(project.url, seeded)
    const counts: Array<ProbeCount> = []
    for (const probe of probes) {
      const projectSmall = await countOne(project, projectCounter, token, probe.small(fixtures), true)
      const projectLarge = await countOne(project, projectCounter, token, probe.large(fixtures), true)
      const baselineSmall = await countOne(baseline, baselineCounter, token, probe.small(fixtures), false)
      const baselineLarge = await countOne(baseline, baselineCounter, token, probe.large(fixtures), false)
      const count: ProbeCount = {
        title: probe.title,
        write: probe.write,
        project: { small: projectSmall.length, large: projectLarge.length },
        baseline: { small: baselineSmall.length, large: baselineLarge.length },
        projectStatements: projectSmall
      }
      if (process.env["BENCH_DEBUG"]) {
        console.log(JSON.stringify({ projectSmall, projectLarge, baselineSmall, baselineLarge }, null, 1))
      }
      console.log(
        `  ${probe.title}: project ${count.project.small} / ${count.project.large}, baseline ${count.baseline.small} / ${count.baseline.large}`
      )
      counts.push(count)
    }
    await baseline.child.stop()
    await project.child.stop()
    return counts
  } finally {
    await projectCounter.close()
    await baselineCounter.close()
    await database.drop()
  }
}
