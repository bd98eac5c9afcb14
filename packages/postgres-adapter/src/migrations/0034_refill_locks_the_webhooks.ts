import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The refill trigger (migration 0018) reads the webhooks `FOR KEY SHARE` when it queues its promotions'
 * deliveries, as `writeEvents` does: a webhook removed by a transaction committing meanwhile is passed
 * over instead of failing the write on the deliveries' foreign key. Otherwise the function is 0018's.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION session_replies_refill() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      promoted bigint;
    BEGIN
      IF OLD.state <> 'confirmed' THEN
        RETURN NULL;
      END IF;
      PERFORM 1 FROM sessions WHERE id = OLD.session_id FOR NO KEY UPDATE;
      IF NOT FOUND THEN
        RETURN NULL;
      END IF;
      FOR promoted IN
        UPDATE session_replies r SET state = 'confirmed'
        FROM (
          SELECT w.athlete_id FROM session_replies w
          WHERE w.session_id = OLD.session_id AND w.state = 'waiting'
          ORDER BY w.yes_order
          LIMIT (SELECT CASE WHEN a.capacity IS NOT NULL THEN GREATEST(a.capacity - (SELECT count(*)
                   FROM session_replies c WHERE c.session_id = OLD.session_id AND c.state = 'confirmed'), 0) END
                 FROM (SELECT 1) one LEFT JOIN session_attendance a ON a.session_id = OLD.session_id)
        ) chosen
        WHERE r.session_id = OLD.session_id AND r.athlete_id = chosen.athlete_id
        RETURNING r.athlete_id
      LOOP
        WITH event AS (
          INSERT INTO attendance_events (session_id, type, data)
          VALUES (OLD.session_id, 'promotion', jsonb_build_object('athleteId', promoted))
          RETURNING id, session_id)
        INSERT INTO webhook_deliveries (webhook_id, event_id, session_id)
        SELECT w.id, event.id, event.session_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w;
      END LOOP;
      RETURN NULL;
    END $$`)
})
