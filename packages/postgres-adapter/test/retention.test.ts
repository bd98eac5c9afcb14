import { defaultRetentionSettings, purgeExpired, RetentionRepository, RetentionSettings } from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { retentionContract } from "../../core/test/repositoryContract/retention.ts"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"

onEachDatabaseContract(retentionContract)

const Count = Schema.Array(Schema.Struct({ count: Schema.Number }))
const countOf = (sql: SqlClient.SqlClient, table: string) =>
  sql.unsafe(`SELECT count(*)::int AS count FROM ${table}`).pipe(
    Effect.flatMap(Schema.decodeUnknownEffect(Count)),
    Effect.map((rows) => rows[0]!.count)
  )

/** `count` events a year old, each delivered to one webhook (its delivery done); the first `pending` still pending. */
const oldEvents = (sql: SqlClient.SqlClient, count: number, pending = 0) =>
  Effect.gen(function*() {
    const [hook] = yield* sql<{ id: string }>`INSERT INTO webhooks (url, secret)
      VALUES ('http://a.test/hook', 'ssssssssssssssss') RETURNING id::text AS id`
    yield* sql`INSERT INTO attendance_events (session_id, type, data, occurred_at)
      SELECT n, 'reply', '{}'::jsonb, now() - interval '365 days' + n * interval '1 ms'
      FROM generate_series(1, ${count}) AS n`
    yield* sql`INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, pending, attempts)
      SELECT ${BigInt(hook!.id)}, id, session_id, false, 1 FROM attendance_events`
    yield* sql`UPDATE webhook_deliveries SET pending = true
      WHERE event_id IN (SELECT id FROM attendance_events ORDER BY id LIMIT ${pending})`
  })

const inBatchesOf = (batchSize: number) => ({ ...defaultRetentionSettings, batchSize, pauseMs: 0 })

onEachDatabase("The retention purge: batches", (it) => {
  it.effect("purges a large outbox in batches of the setting, each one statement, keeping the pending event", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* oldEvents(sql, 2501, 1)
      const batch = yield* countStatements(
        Effect.flatMap(
          Effect.service(RetentionRepository),
          (r) => r.purge("outboxEvents", { epochMs: Date.now(), clubDay: "2000-01-01" as never }, 100)
        )
      )
      expect(batch.result).toBe(100)
      expect(batch.statements).toHaveLength(1)
      const purged = yield* purgeExpired(Date.now()).pipe(Effect.provideService(RetentionSettings, inBatchesOf(1000)))
      expect(purged.outboxEvents).toEqual({ rows: 2400, batches: 3 })
      expect(yield* countOf(sql, "attendance_events")).toBe(1)
      // The deliveries, done, went with their events; the pending one stays with its own.
      expect(yield* countOf(sql, "webhook_deliveries")).toBe(1)
    }))
})

describe.skipIf(!serverAvailable)("The retention purge across two instances [PostgreSQL server]", () => {
  layer(instancesLive({ maxConnectionsOfB: 4 }), { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("two instances purging at once delete each row once, and neither fails", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const sqlA = Context.get(a, SqlClient.SqlClient)
        yield* oldEvents(sqlA, 5000)
        const purge = (instance: Context.Context<InstanceServices>) =>
          purgeExpired(Date.now()).pipe(
            Effect.provideService(RetentionSettings, inBatchesOf(200)),
            Effect.provide(instance)
          )
        const runs = yield* Effect.all([purge(a), purge(b), purge(a), purge(b)], { concurrency: "unbounded" })
        expect(runs.reduce((sum, run) => sum + run.outboxEvents!.rows, 0)).toBe(5000)
        expect(yield* countOf(sqlA, "attendance_events")).toBe(0)
      }))
  })
})
