import { fork } from "node:child_process"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { freePort } from "@club/test-support"
import { Effect } from "effect"
import { runSql } from "../database/runSql.ts"
import { seed, type Seeded } from "../database/seed.ts"
import { seedEmbedded } from "../database/seedEmbedded.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { ensureDir, nodeBinary, tmpDir } from "../process/paths.ts"
import { createUser, login } from "../servers/api.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { admin, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"

/** Issue 37's standing rule (docs/RELIABILITY.md, "Bounds"): the targets each worst input is held to. */
export const worstInputTargets = { eventLoopMs: 50, sharedLockMs: 100 } as const

/** What a case's measured work answered: its status(es) and what the answer held. */
interface Outcome {
  readonly statuses: ReadonlyArray<number>
  readonly answer: string
}

interface Context {
  readonly url: string
  readonly token: string
  readonly seeded: Seeded
  /** The bench coach's coach id: a series is the calling coach's. */
  readonly coachId: number
  /** Filled by the cases as they go (the series' id and its first occurrence, the feed's path). */
  readonly state: Record<string, unknown>
}

interface WorstCase {
  readonly name: string
  readonly title: string
  /** The documented limit the input reaches. */
  readonly bound: string
  /** Set-up that is not measured (fixtures). */
  readonly prepare?: (context: Context) => Promise<void>
  /** The measured work; the probes run from its start to its end. */
  readonly run: (context: Context) => Promise<Outcome>
  /** A read, a refusal or a write made anew each run: measured `repeats` times, the least disturbed run kept. */
  readonly repeatable?: boolean
}

export interface WorstInputRow {
  readonly name: string
  readonly title: string
  readonly bound: string
  readonly statuses: ReadonlyArray<number>
  readonly answer: string
  /** Wall-clock time of the measured work (the request, or the requests sent together). */
  readonly requestMillis: number
  /** The times it was measured (a read is repeated: see `repeats`); the figures below are the least disturbed run's. */
  readonly runs: number
  /**
   * The server's own longest event-loop delay meanwhile: prom-client's `nodejs_eventloop_lag_max_seconds`
   * (node's monitorEventLoopDelay, reset at each scrape of `/metrics`), scraped just before and after.
   */
  readonly eventLoopMaxMillis: number
  /** PostgreSQL only: the longest any statement of the database was seen waiting for a lock meanwhile. */
  readonly lockWaitMaxMillis?: number
  /** The lock and the statement that waited longest (empty when none waited). */
  readonly lockWaiter?: string
  /** The slowest `/health/live` answered meanwhile, and how many were sent. */
  readonly liveMaxMillis: number
  readonly liveProbes: number
  /** The slowest unrelated coach's `POST /planning/sessions` answered meanwhile, and how many were sent. */
  readonly writerMaxMillis: number
  readonly writerProbes: number
  /** `eventLoopMaxMillis` within the target. */
  readonly eventLoopPass: boolean
  /** `lockWaitMaxMillis` within the target; PostgreSQL only (the embedded database has one connection). */
  readonly sharedLockPass?: boolean
}

export interface WorstInputRun {
  readonly database: "PostgreSQL" | "embedded"
  readonly rows: ReadonlyArray<WorstInputRow>
}

const send = async (
  context: Context,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) => {
  const response = await fetch(`${context.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${context.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(300_000)
  })
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) }
}

const json = (bytes: Buffer) => JSON.parse(bytes.toString("utf8")) as Record<string, unknown>
const kib = (bytes: Buffer) => `${Math.round(bytes.length / 1024).toLocaleString("en-US")} KiB`
const itemsOf = (bytes: Buffer) => (json(bytes)["items"] as ReadonlyArray<unknown>).length

/** The athletes of the bench data, the first `count` of them. */
const athletes = (seeded: Seeded, count: number) =>
  Array.from(
    { length: Math.min(count, seeded.athletes.max - seeded.athletes.min + 1) },
    (_, i) => seeded.athletes.min + i
  )

/** Occurrences × people of the largest series allowed: SCHEDULE_MAX_SERIES_PLACES (200,000) over 1,000 occurrences. */
const seriesOccurrences = 1_000
const seriesPeople = 200

/**
 * Each endpoint's worst documented input (docs/RELIABILITY.md "Bounds", docs/CONFIGURATION.md), on
 * the bench data set, in an order where a case may use what an earlier one wrote.
 */
const cases: ReadonlyArray<WorstCase> = [
  {
    name: "series-create",
    title: "POST /planning/series, 1,000 daily occurrences from 2023, the coach and 199 athletes",
    bound:
      "SCHEDULE_MAX_OCCURRENCES 1,000 × people = SCHEDULE_MAX_SERIES_PLACES 200,000; SCHEDULE_PLACES_PER_WRITE 200",
    run: async (context) => {
      const reply = await send(context, "POST", "/planning/series", {
        name: "Worst series",
        groupe: "Worst",
        coachId: context.coachId,
        athleteIds: athletes(context.seeded, seriesPeople - 1),
        duree: 60,
        start: "2023-01-02T18:00:00",
        rrule: `FREQ=DAILY;COUNT=${seriesOccurrences}`
      })
      if (reply.status !== 201) return { statuses: [reply.status], answer: reply.body.toString("utf8").slice(0, 200) }
      const series = json(reply.body) as { id: number; occurrences: ReadonlyArray<{ sessionId: number }> }
      context.state["seriesId"] = series.id
      context.state["firstOccurrence"] = series.occurrences[0]?.sessionId
      return { statuses: [201], answer: `${series.occurrences.length} occurrences written by the request` }
    }
  },
  {
    name: "series-extension",
    title: "The same series' extension: the other occurrences written in the background, read until all are there",
    bound:
      "a transaction of at most SCHEDULE_PLACES_PER_WRITE (200) places, or one occurrence, each; a read never waits for it",
    run: async (context) => {
      const id = context.state["seriesId"]
      if (id === undefined) return { statuses: [], answer: "no series (its create failed)" }
      const statuses: Array<number> = []
      const started = Date.now()
      let occurrences = 0
      // GET /planning/series/{id} answers every occurrence (at most 1,000) and extends by one
      // transaction itself when nobody holds the series: polled every second until the extension
      // has written them all.
      while (occurrences < seriesOccurrences && Date.now() - started < 120_000) {
        await sleep(1_000)
        const reply = await send(context, "GET", `/planning/series/${id}`)
        statuses.push(reply.status)
        if (reply.status !== 200) break
        occurrences = (json(reply.body)["occurrences"] as ReadonlyArray<unknown>).length
      }
      return {
        statuses: [...new Set(statuses)],
        answer: `${occurrences} occurrences after ${
          ((Date.now() - started) / 1000).toFixed(0)
        } s (${statuses.length} reads)`
      }
    }
  },
  {
    repeatable: true,
    name: "series-never",
    title:
      "POST /planning/series, a rule that never occurs (FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Tuesday), three at once",
    bound: "a rule that never occurs is refused before any walk",
    run: async (context) => {
      const replies = await Promise.all(Array.from({ length: 3 }, () =>
        send(context, "POST", "/planning/series", {
          name: "Never",
          groupe: null,
          coachId: context.coachId,
          athleteIds: [],
          duree: 60,
          start: "2026-12-01T18:00:00",
          rrule: "FREQ=DAILY;INTERVAL=7;BYDAY=MO"
        })))
      return { statuses: replies.map((r) => r.status), answer: "refused" }
    }
  },
  {
    repeatable: true,
    name: "conflicts-page",
    title: "GET /planning/conflicts?limit=500 over 80 overlapping sessions sharing 150 athletes",
    bound: "a page of at most 500 rows",
    prepare: async (context) => {
      const athleteIds = athletes(context.seeded, 150)
      for (let batch = 0; batch < 8; batch++) {
        const replies = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            send(context, "POST", "/session/create", {
              name: `Overlapping ${batch * 10 + i}`,
              creneau: "2031-05-05T10:00:00",
              duree: 120,
              coachId: context.coachId,
              athleteIds
            }))
        )
        const refused = replies.find((r) => r.status !== 201)
        if (refused !== undefined) throw new Error(`POST /session/create: ${refused.status} ${refused.body}`)
      }
    },
    run: async (context) => {
      const reply = await send(context, "GET", "/planning/conflicts?limit=500")
      return { statuses: [reply.status], answer: reply.status === 200 ? `${itemsOf(reply.body)} rows` : "" }
    }
  },
  {
    repeatable: true,
    name: "planning-page",
    title: "GET /planning/sessions?limit=500",
    bound: "a page of at most 500 sessions",
    run: async (context) => {
      const reply = await send(context, "GET", "/planning/sessions?limit=500")
      return {
        statuses: [reply.status],
        answer: reply.status === 200 ? `${itemsOf(reply.body)} sessions, ${kib(reply.body)}` : ""
      }
    }
  },
  {
    repeatable: true,
    name: "session-all",
    title: "GET /session/all, the whole list (no limit)",
    bound: "none: the seed's whole list (open point); streamed in pages of 1,000",
    run: async (context) => {
      const reply = await send(context, "GET", "/session/all")
      return {
        statuses: [reply.status],
        answer: reply.status === 200
          ? `${(JSON.parse(reply.body.toString("utf8")) as Array<unknown>).length} sessions, ${kib(reply.body)}`
          : ""
      }
    }
  },
  {
    name: "session-create",
    title: "POST /session/create with every athlete of the data set (1,000)",
    bound: "10,000 ids a list (the bench data holds 1,000 athletes)",
    run: async (context) => {
      const reply = await send(context, "POST", "/session/create", {
        name: "Everyone",
        creneau: "2034-01-02T10:00:00",
        duree: 60,
        coachId: context.coachId,
        athleteIds: athletes(context.seeded, 10_000)
      })
      if (reply.status === 201) context.state["everyone"] = json(reply.body)["id"]
      return { statuses: [reply.status], answer: kib(reply.body) }
    }
  },
  {
    name: "session-update",
    title: "PUT /session/update/{id}: every athlete of the data set replaced by the other half",
    bound: "10,000 ids a list",
    run: async (context) => {
      const id = context.state["everyone"] ?? context.seeded.sessions.min
      const all = athletes(context.seeded, 10_000)
      const reply = await send(context, "PUT", `/session/update/${id}`, {
        duree: 90,
        athleteIds: all.slice(all.length / 2)
      })
      return { statuses: [reply.status], answer: `${all.length / 2} athletes removed` }
    }
  },
  {
    // Each run books everyone at a time of its own, so a run is the same write as the first.
    repeatable: true,
    name: "planning-create",
    title: "POST /planning/sessions booking every athlete of the data set (1,000) and the coach",
    bound: "10,000 ids a list",
    run: async (context) => {
      const run = Number(context.state["planningCreateRuns"] ?? 0) + 1
      context.state["planningCreateRuns"] = run
      const reply = await send(context, "POST", "/planning/sessions", {
        name: "Everyone booked",
        groupe: null,
        coachId: context.coachId,
        athleteIds: athletes(context.seeded, 10_000),
        duree: 60,
        creneau: `${2034 + run}-01-02T10:00:00`
      })
      return { statuses: [reply.status], answer: kib(reply.body) }
    }
  },
  {
    repeatable: true,
    name: "coach-feed",
    title: "GET the coach's calendar feed, rendered (the series' 1,000 occurrences and the coach's other sessions)",
    bound: "none documented: every session of the coach",
    prepare: async (context) => {
      const rotated = await send(context, "POST", "/planning/feed-token")
      if (rotated.status !== 200 && rotated.status !== 201) throw new Error(`feed token: ${rotated.status}`)
      const pattern = json(rotated.body)["coachPattern"] as string | undefined
      if (pattern === undefined) throw new Error(`feed token: no coachPattern in ${rotated.body}`)
      context.state["feed"] = pattern.replace("{id}", String(context.coachId))
    },
    run: async (context) => {
      const reply = await send(context, "GET", context.state["feed"] as string)
      return {
        statuses: [reply.status],
        answer: `${reply.body.toString("utf8").split("BEGIN:VEVENT").length - 1} events, ${kib(reply.body)}`
      }
    }
  },
  {
    repeatable: true,
    name: "docs",
    title: "GET /docs, 20 at once, without Accept-Encoding (the whole page each)",
    bound: "computed once off the event loop; ETag",
    run: async (context) => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => send(context, "GET", "/docs", undefined, { "accept-encoding": "identity" }))
      )
      return { statuses: [...new Set(replies.map((r) => r.status))], answer: `${kib(replies[0]!.body)} each` }
    }
  },
  {
    repeatable: true,
    name: "openapi",
    title: "GET /openapi.json, 20 at once",
    bound: "the contract's size",
    run: async (context) => {
      const replies = await Promise.all(Array.from({ length: 20 }, () => send(context, "GET", "/openapi.json")))
      return { statuses: [...new Set(replies.map((r) => r.status))], answer: `${kib(replies[0]!.body)} each` }
    }
  }
]

interface ProbeResult {
  readonly live: ReadonlyArray<number>
  readonly writes: ReadonlyArray<number>
  readonly failures: ReadonlyArray<string>
  readonly nextSlot: number
}

/**
 * Another client polling `/health/live` (answered without the database: its latency is how long
 * the event loop was held) and an unrelated coach writing `POST /planning/sessions` back to back
 * (a write that takes the locks every session create takes), in a process of their own
 * (src/load/stallProbes.ts), until the answered function is called.
 */
const startProbes = async (url: string, writerToken: string, writerCoachId: number, slot: { next: number }) => {
  const child = fork(join(import.meta.dirname, "..", "load", "stallProbes.ts"), [
    url,
    writerToken,
    String(writerCoachId),
    String(slot.next)
  ], { execPath: nodeBinary, stdio: ["ignore", "inherit", "inherit", "ipc"] })
  const messages: Array<{ kind: string } & Partial<ProbeResult>> = []
  const waiters: Array<() => void> = []
  child.on("message", (message) => {
    messages.push(message as { kind: string })
    for (const wake of waiters.splice(0)) wake()
  })
  const next = async (kind: string) => {
    while (true) {
      const found = messages.find((m) => m.kind === kind)
      if (found !== undefined) return found
      if (child.exitCode !== null) throw new Error(`the probes exited (${child.exitCode})`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 1_000)
      })
    }
  }
  await next("started")
  return async (): Promise<ProbeResult> => {
    child.send("stop")
    const done = (await next("done")) as ProbeResult
    slot.next = done.nextSlot
    return done
  }
}

/** The server's longest event-loop delay since the last scrape, in ms (the scrape resets it). */
const eventLoopLagMax = async (url: string) => {
  const reply = await fetch(`${url}/metrics`)
  const text = await reply.text()
  const line = /^nodejs_eventloop_lag_max_seconds (\S+)$/mu.exec(text)
  if (!reply.ok || line === null) throw new Error(`GET /metrics: ${reply.status}, no nodejs_eventloop_lag_max_seconds`)
  return Number(line[1]) * 1_000
}

/**
 * PostgreSQL's view of the shared locks: every 10 ms, the longest any statement of the database
 * has been waiting for a lock (row, table or advisory: `wait_event_type = 'Lock'`), on a
 * connection of the bench's own; the maximum seen, until stopped. A wait shorter than the
 * sampling interval may be missed, never one that matters here.
 */
const startLockSampler = (databaseUrl: string, databaseName: string) => {
  let running = true
  let longest = { millis: 0, statement: "" }
  const sampled = runSql(databaseUrl, (sql) =>
    Effect.gen(function*() {
      while (running) {
        const [row] = yield* sql<{ waiting: unknown; statement: unknown }>`SELECT
            extract(epoch FROM clock_timestamp() - query_start)::float8 * 1000 AS waiting,
            wait_event || ': ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 100) AS statement
          FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = ${databaseName}
          ORDER BY query_start LIMIT 1`
        const millis = Number(row?.waiting ?? 0)
        if (millis > longest.millis) longest = { millis, statement: String(row?.statement ?? "") }
        yield* Effect.sleep(10)
      }
    }))
  return async () => {
    running = false
    await sampled
    return longest
  }
}

const measureOnce = async (
  worst: WorstCase,
  context: Context,
  probes: { readonly token: string; readonly coachId: number; readonly slot: { next: number } },
  database: { readonly url: string; readonly name: string } | undefined
) => {
  // A quiet moment between runs, so that one's aftermath does not fall on the next.
  await sleep(500)
  const stop = await startProbes(context.url, probes.token, probes.coachId, probes.slot)
  const stopSampler = database === undefined ? undefined : startLockSampler(database.url, database.name)
  // The probes' first answers, so that the work always meets them running.
  await sleep(100)
  await eventLoopLagMax(context.url)
  const started = performance.now()
  const outcome = await worst.run(context)
  const requestMillis = performance.now() - started
  const eventLoopMaxMillis = await eventLoopLagMax(context.url)
  const lockWait = await stopSampler?.()
  const { failures, live, writes } = await stop()
  if (failures.length > 0) throw new Error(`${worst.name}: the writer probe was refused (${failures.join(", ")})`)
  return {
    outcome,
    requestMillis,
    eventLoopMaxMillis,
    lockWaitMaxMillis: lockWait?.millis,
    lockWaiter: lockWait?.statement,
    liveMaxMillis: Math.max(0, ...live),
    liveProbes: live.length,
    writerMaxMillis: Math.max(0, ...writes),
    writerProbes: writes.length
  }
}

/** How often a repeatable case runs; the least disturbed run counts (a real hold shows in every run, noise not). */
const repeats = Number(process.env["BENCH_WORST_REPEATS"] ?? 3)

const measureCase = async (
  worst: WorstCase,
  context: Context,
  probes: { readonly token: string; readonly coachId: number; readonly slot: { next: number } },
  database: { readonly url: string; readonly name: string } | undefined
): Promise<WorstInputRow> => {
  await worst.prepare?.(context)
  const runs: Array<Awaited<ReturnType<typeof measureOnce>>> = []
  for (let i = 0; i < (worst.repeatable === true ? repeats : 1); i++) {
    runs.push(await measureOnce(worst, context, probes, database))
  }
  // The least disturbed run: the one whose worst figure against its target is the smallest.
  const score = (run: (typeof runs)[number]) =>
    Math.max(
      run.eventLoopMaxMillis / worstInputTargets.eventLoopMs,
      (run.lockWaitMaxMillis ?? 0) / worstInputTargets.sharedLockMs
    )
  const kept = runs.reduce((best, run) => (score(run) < score(best) ? run : best))
  return {
    name: worst.name,
    title: worst.title,
    bound: worst.bound,
    statuses: kept.outcome.statuses,
    answer: kept.outcome.answer,
    requestMillis: kept.requestMillis,
    runs: runs.length,
    eventLoopMaxMillis: kept.eventLoopMaxMillis,
    ...(kept.lockWaitMaxMillis === undefined
      ? {}
      : { lockWaitMaxMillis: kept.lockWaitMaxMillis, lockWaiter: kept.lockWaiter ?? "" }),
    liveMaxMillis: kept.liveMaxMillis,
    liveProbes: kept.liveProbes,
    writerMaxMillis: kept.writerMaxMillis,
    writerProbes: kept.writerProbes,
    eventLoopPass: kept.eventLoopMaxMillis <= worstInputTargets.eventLoopMs,
    ...(kept.lockWaitMaxMillis === undefined
      ? {}
      : { sharedLockPass: kept.lockWaitMaxMillis <= worstInputTargets.sharedLockMs })
  }
}

/** The idle figures: the probes alone for two seconds, what each probe costs with nothing else running. */
const idleCase: WorstCase = {
  name: "idle",
  repeatable: true,
  title: "nothing else (the probes alone, 2 s)",
  bound: "—",
  run: async () => {
    await sleep(2_000)
    return { statuses: [], answer: "" }
  }
}

export const selectedWorstCases = (): ReadonlyArray<WorstCase> =>
  cases.filter((c) => settings.scenarios === undefined || settings.scenarios.includes(`worst-${c.name}`))

const runCases = async (
  project: ServerProcess,
  seeded: Seeded,
  database: { readonly url: string; readonly name: string } | undefined
) => {
  const callers = await prepareCallers(project.url, seeded)
  // The unrelated coach: the data set's last coach, which no case writes for.
  const adminToken = await login(project.url, admin)
  const writer = { name: "bench-writer", password: "bench-writer-password" }
  await createUser(project.url, adminToken, { ...writer, role: "COACH", coachId: seeded.coaches.max })
  const probes = { token: await login(project.url, writer), coachId: seeded.coaches.max, slot: { next: 0 } }
  const context: Context = {
    url: project.url,
    token: callers.token,
    seeded,
    coachId: seeded.coaches.min,
    state: {}
  }
  const rows: Array<WorstInputRow> = []
  for (const worst of [idleCase, ...selectedWorstCases()]) {
    const row = await measureCase(worst, context, probes, database)
    console.log(
      `  ${worst.name}: ${row.statuses.join("/")} in ${row.requestMillis.toFixed(0)} ms (${row.answer}); ` +
        `event loop max ${row.eventLoopMaxMillis.toFixed(0)} ms, lock wait max ${
          row.lockWaitMaxMillis?.toFixed(0) ?? "—"
        } ms${row.lockWaiter ? ` (${row.lockWaiter})` : ""}; /health/live max ${
          row.liveMaxMillis.toFixed(0)
        } ms (${row.liveProbes}), writer max ${
          row.writerMaxMillis.toFixed(0)
        } ms (${row.writerProbes}); best of ${row.runs}`
    )
    rows.push(row)
  }
  return rows
}

/**
 * Issue 37's figures: each endpoint's worst documented input on the bench data set, on PostgreSQL
 * and on the embedded database, with another client's `/health/live` latency (the event loop) and
 * an unrelated coach's write latency (the shared locks) measured meanwhile.
 */
export const worstInputsPhase = async (): Promise<ReadonlyArray<WorstInputRun>> => {
  const runs: Array<WorstInputRun> = []
  const database = await createTemporaryDatabase(settings.serverUrl, "worst")
  try {
    const project = await startProject({
      name: "project-worst",
      port: await freePort(),
      database: { kind: "server", url: database.url },
      logLevel: settings.logLevel
    })
    try {
      const seeded = await runSql(database.url, (sql) => seed(sql, settings.dataSet))
      console.log("  on PostgreSQL")
      runs.push({
        database: "PostgreSQL",
        rows: await runCases(project, seeded, { url: database.url, name: new URL(database.url).pathname.slice(1) })
      })
    } finally {
      await project.child.stop()
    }
  } finally {
    await database.drop()
  }
  const dataDir = ensureDir(join(tmpDir, "worst-embedded-data"))
  try {
    const seeded = await seedEmbedded(join(dataDir, "postgres"), (sql) => seed(sql, settings.dataSet))
    const project = await startProject({
      name: "project-worst-embedded",
      port: await freePort(),
      database: { kind: "embedded", dataDir },
      logLevel: settings.logLevel
    })
    try {
      console.log("  on the embedded database")
      runs.push({ database: "embedded", rows: await runCases(project, seeded, undefined) })
    } finally {
      await project.child.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  return runs
}
