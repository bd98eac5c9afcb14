import {
  defaultRetentionSettings,
  purgeExpired,
  type RetainedKind,
  RetentionRepository,
  RetentionSettings
} from "@club/core"
import { RetentionRepositoryLive } from "@club/postgres-adapter"
import { freePort } from "@club/test-support"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted } from "effect"
import { runSql } from "../database/runSql.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { login } from "../servers/api.ts"
import { admin, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { profileArgs } from "./profileArgs.ts"

/** Requests' latency over a window, in milliseconds. */
export interface LatencySample {
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly max: number
}

export interface RetentionResult {
  /** Outbox events seeded, each a year old with one delivery done. */
  readonly events: number
  readonly seedSeconds: number
  readonly batchSize: number
  readonly pauseMs: number
  readonly purged: number
  readonly batches: number
  readonly seconds: number
  readonly rowsPerSecond: number
  /** The longest batch (one DELETE statement and its commit), and the median one. */
  readonly batchMillis: { readonly median: number; readonly max: number }
  /** Concurrent `GET /users/all` by `clients` callers, each one request after the other. */
  readonly clients: number
  readonly before: LatencySample
  readonly during: LatencySample
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

const sample = (latencies: ReadonlyArray<number>): LatencySample => {
  const sorted = [...latencies].sort((a, b) => a - b)
  return { requests: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 }
}

/** `count` events a year old, numbered in time order, each delivered (done) to one webhook; then VACUUM ANALYZE. */
const seedOutbox = (url: string, count: number) =>
  runSql(url, (sql) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO webhooks (url, secret) VALUES ('http://receiver.test/hook', 'bench-secret-0123456789')`
      yield* sql`INSERT INTO attendance_events (session_id, type, data, occurred_at)
        SELECT 1 + n % 5000, 'reply',
          jsonb_build_object('athleteId', n % 1000, 'answer', 'yes', 'state', 'confirmed', 'reason', null),
          now() - interval '365 days' + n * interval '1 ms'
        FROM generate_series(1, ${count}) AS n`
      yield* sql`INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, pending, attempts, due_at)
        SELECT w.id, e.id, e.session_id, false, 1, e.occurred_at FROM attendance_events e, webhooks w`
      yield* sql`VACUUM ANALYZE attendance_events`
      yield* sql`VACUUM ANALYZE webhook_deliveries`
    }))

/** Sends `GET /users/all` from `clients` callers, one request after the other each, until `until` resolves. */
const loadUntil = async (url: string, token: string, clients: number, until: Promise<unknown>) => {
  const latencies: Array<number> = []
  let done = false
  void until.finally(() => {
    done = true
  })
  await Promise.all(Array.from({ length: clients }, async () => {
    while (!done) {
      const sent = performance.now()
      const response = await fetch(`${url}/users/all`, { headers: { authorization: `Bearer ${token}` } })
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`GET /users/all: ${response.status}`)
      latencies.push(performance.now() - sent)
    }
  }))
  return latencies
}

/**
 * The purge of issue 43 on an outbox of `settings.retentionEvents` events (10 million by the issue's
 * demand), all past their period: core's `purgeExpired` over the adapter's statements, run from the
 * bench's process on a connection of its own, as an instance's purge runs beside its requests.
 * Each batch is timed; meanwhile the project (its own purge of events off) answers `GET /users/all`
 * to a few callers, whose latency is compared with a window before the purge.
 */
export const retentionPhase = async (): Promise<RetentionResult> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "retention")
  try {
    const project = await startProject({
      name: "project",
      port: await freePort(),
      database: { kind: "server", url: database.url },
      nodeArgs: profileArgs("project"),
      logLevel: settings.logLevel,
      env: { RETENTION_OUTBOX_EVENTS_DAYS: "off", RETENTION_WEBHOOK_ATTEMPTS_DAYS: "off" }
    })
    try {
      const events = settings.retentionEvents
      const seedStarted = Date.now()
      await seedOutbox(database.url, events)
      const seedSeconds = (Date.now() - seedStarted) / 1000
      console.log(`  seeded ${events} events and their deliveries in ${seedSeconds.toFixed(0)} s`)
      const token = await login(project.url, admin)
      const clients = settings.retentionClients
      const before = await loadUntil(project.url, token, clients, new Promise((resolve) => setTimeout(resolve, 5000)))
      const batchMillis: Array<number> = []
      const timed = Layer.effect(
        RetentionRepository,
        Effect.map(Effect.service(RetentionRepository), (live) =>
          RetentionRepository.of({
            purge: (kind, cutoff, limit) =>
              Effect.suspend(() => {
                const started = performance.now()
                return Effect.tap(
                  live.purge(kind, cutoff, limit),
                  () => Effect.sync(() => batchMillis.push(performance.now() - started))
                )
              })
          }))
      ).pipe(
        Layer.provide(RetentionRepositoryLive),
        Layer.provide(PgClient.layer({
          url: Redacted.make(database.url),
          maxConnections: 1,
          connectTimeout: Duration.seconds(10)
        }))
      )
      const only = Object.fromEntries(
        Object.keys(defaultRetentionSettings.periodDays).map((kind) => [kind, kind === "outboxEvents" ? 90 : null])
      ) as Record<RetainedKind, number | null>
      const retention = {
        periodDays: only,
        batchSize: settings.retentionBatchSize,
        pauseMs: defaultRetentionSettings.pauseMs
      }
      const started = performance.now()
      const purge = Effect.runPromise(
        purgeExpired(Date.now()).pipe(Effect.provideService(RetentionSettings, retention), Effect.provide(timed))
      )
      const during = await loadUntil(project.url, token, clients, purge)
      const purged = (await purge).outboxEvents!
      const seconds = (performance.now() - started) / 1000
      const [left] = await runSql(
        database.url,
        // The server's own events of the run (its users' creations, issue 42) are young: kept.
        (sql) =>
          sql<{ count: number }>`SELECT count(*)::int AS count FROM attendance_events
            WHERE occurred_at < now() - make_interval(days => ${only.outboxEvents!})`
      )
      if (purged.rows !== events || left?.count !== 0) {
        throw new Error(`retention: purged ${purged.rows} of ${events} events, ${left?.count} expired left`)
      }
      const sorted = [...batchMillis].sort((a, b) => a - b)
      return {
        events,
        seedSeconds,
        batchSize: retention.batchSize,
        pauseMs: retention.pauseMs,
        purged: purged.rows,
        batches: purged.batches,
        seconds,
        rowsPerSecond: purged.rows / seconds,
        batchMillis: { median: quantile(sorted, 0.5), max: sorted.at(-1) ?? 0 },
        clients,
        before: sample(before),
        during: sample(during)
      }
    } finally {
      await project.child.stop()
    }
  } finally {
    await database.drop()
  }
}
