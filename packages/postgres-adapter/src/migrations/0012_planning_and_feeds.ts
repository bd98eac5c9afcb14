import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The planning's paging and calendar feeds (issue 17).
 *
 * - Pages of sessions are read in (`creneau`, `id`) order, a session without a `creneau` first:
 *   `sessions_page_idx` serves the keyset condition and the order in one range scan.
 * - A session's `revision` (a feed's SEQUENCE) counts the changes of its values, and `change`
 *   takes a new number of `session_changes` on creation and on every such change: a feed's version
 *   is a digest of the (id, change) pairs of its sessions, one cheap statement (the ETag).
 * - `feed_tokens` keeps the SHA-256 hash of each user's feed token, never the token.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX sessions_page_idx ON sessions ((COALESCE(creneau, '-infinity'::timestamp)), id)`
  yield* sql`CREATE SEQUENCE session_changes`
  yield* sql`ALTER TABLE sessions
    ADD COLUMN revision integer NOT NULL DEFAULT 0,
    ADD COLUMN change bigint NOT NULL DEFAULT nextval('session_changes')`
  yield* sql.unsafe(`CREATE FUNCTION sessions_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.name, NEW.is_recurrent, NEW.creneau, NEW.duree, NEW.groupe, NEW.coach_id)
        IS DISTINCT FROM (OLD.name, OLD.is_recurrent, OLD.creneau, OLD.duree, OLD.groupe, OLD.coach_id) THEN
        NEW.revision := OLD.revision + 1;
        NEW.change := nextval('session_changes');
      END IF;
      RETURN NEW;
    END $$`)
  yield* sql`CREATE TRIGGER sessions_count_change BEFORE UPDATE ON sessions
    FOR EACH ROW EXECUTE FUNCTION sessions_count_change()`
  yield* sql`CREATE TABLE feed_tokens (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE
  )`
})
