import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * An activity belongs to at most one session: `session_id` becomes NULL when an update of its
 * session drops it (detached, not deleted), and deleting the session deletes it.
 * Activities never take a supplied id, hence `ALWAYS`.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE activities (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text,
    theme text,
    duree bigint CHECK (duree >= 0),
    data_activite text[] NOT NULL DEFAULT '{}',
    session_id bigint REFERENCES sessions (id) ON DELETE CASCADE
  )`
  yield* sql`CREATE INDEX activities_session_id_idx ON activities (session_id)`
  yield* sql`CREATE INDEX activities_theme_idx ON activities (theme)`
})
