import type { NewEvent } from "@club/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * Writes `events` to the outbox, in their order, and a delivery of each to every webhook
 * registered: one statement, inside the caller's transaction, so that an event exists exactly
 * when the change it tells was committed.
 */
export const writeEvents = (sql: SqlClient, events: ReadonlyArray<NewEvent>) =>
  events.length === 0 ? Effect.void : sql`WITH event AS (
      INSERT INTO attendance_events (session_id, type, data)
      SELECT x.session_id, x.type, x.data::jsonb
      FROM unnest(${events.map((e) => BigInt(e.sessionId))}::bigint[], ${events.map((e) => e.type)}::text[],
        ${events.map((e) => JSON.stringify(e.data))}::text[]) WITH ORDINALITY AS x(session_id, type, data, n)
      ORDER BY x.n
      RETURNING id, session_id)
    INSERT INTO webhook_deliveries (webhook_id, event_id, session_id)
    SELECT w.id, event.id, event.session_id FROM event CROSS JOIN webhooks w`.pipe(Effect.asVoid)
