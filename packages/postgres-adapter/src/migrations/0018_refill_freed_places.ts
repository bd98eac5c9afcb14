import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A confirmed reply that goes because its athlete left the session (the seed's session update, an
 * athlete deleted) frees a place: the first waiting are confirmed at once, in the same
 * transaction, under the session's lock as every other change of its replies, with their
 * promotion events. Nothing when the session itself is going.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE FUNCTION session_replies_refill() RETURNS trigger LANGUAGE plpgsql AS $$
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
        SELECT w.id, event.id, event.session_id FROM event CROSS JOIN webhooks w;
      END LOOP;
      RETURN NULL;
    END $$`)
  yield* sql`CREATE TRIGGER session_replies_refill AFTER DELETE ON session_replies
    FOR EACH ROW EXECUTE FUNCTION session_replies_refill()`
})
