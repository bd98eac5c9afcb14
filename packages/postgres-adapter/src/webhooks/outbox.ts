import type { NewEvent } from "@club/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * An id as a `bigint[]` element, 0 for none (ids start at 1): the driver cannot type an array whose
 * elements are all null, which a batch of membership events' sessions is. `NULLIF` reads it back.
 */
const int8 = (id: number | null | undefined) => BigInt(id ?? 0)

/**
 * Writes `events` to the outbox, in their order, and a delivery of each to every webhook
 * registered: one statement, inside the caller's transaction, so that an event exists exactly
 * when the change it tells was committed. Each names its session, its group (a membership
 * event, issue 41) or neither (the club's stream, decision 0281), whose order of delivery it follows.
 */
export const writeEvents = (sql: SqlClient, events: ReadonlyArray<NewEvent>) =>
  events.length === 0 ? Effect.void : sql`WITH event AS (
      INSERT INTO attendance_events (session_id, group_id, type, data)
      SELECT NULLIF(x.session_id, 0), NULLIF(x.group_id, 0), x.type, x.data::jsonb
      FROM unnest(${events.map((e) => int8(e.sessionId))}::bigint[], ${events.map((e) => int8(e.groupId))}::bigint[],
        ${events.map((e) => e.type)}::text[], ${events.map((e) => JSON.stringify(e.data))}::text[])
        WITH ORDINALITY AS x(session_id, group_id, type, data, n)
      ORDER BY x.n
      RETURNING id, session_id, group_id)
    INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, group_id)
    SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w`.pipe(Effect.asVoid)
