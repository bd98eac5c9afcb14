import { NoticeSettings } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { writeEvents } from "../src/webhooks/outbox.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * A write and a webhook's removal at the same moment: the write's deliveries pass the removed webhook
 * over rather than failing on the deliveries' foreign key (which answered 500 when a write's snapshot
 * still saw a webhook whose removal committed while it waited). On the embedded database the two
 * transactions take turns; on PostgreSQL the removal holds the webhook's row while the write runs.
 */
onEachDatabase("A webhook removed while a write queues its deliveries", (it) => {
  it.effect("the write commits, with deliveries to the webhooks still there only", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [gone, kept] = yield* sql<{ id: number }>`INSERT INTO webhooks (url, secret)
        VALUES ('http://gone.test/hook', 'secret-secret-16'), ('http://kept.test/hook', 'secret-secret-16')
        RETURNING id::float8 AS id`
      const [session] = yield* sql<
        { id: number }
      >`INSERT INTO sessions (name) VALUES ('race') RETURNING id::float8 AS id`
      const removal = sql.withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM webhooks WHERE id = ${gone!.id}`
        yield* Effect.sleep("300 millis")
      }))
      const write = Effect.sleep("100 millis").pipe(
        Effect.andThen(
          sql.withTransaction(writeEvents(sql, [{ sessionId: session!.id, type: "sessionChanged", data: {} }]))
        ),
        Effect.provideService(NoticeSettings, { queueNotices: false })
      )
      yield* Effect.all([removal, write], { concurrency: "unbounded" })
      const delivered = yield* sql<{ webhook: number }>`SELECT d.webhook_id::float8 AS webhook FROM webhook_deliveries d
        JOIN attendance_events e ON e.id = d.event_id WHERE e.session_id = ${session!.id}`
      expect(delivered.map((d) => d.webhook)).toEqual([kept!.id])
      yield* sql`DELETE FROM webhooks WHERE id = ${kept!.id}`
    }))
})
