import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Each user's notice preferences (issue 42): a table of its own rather than columns of `users`,
 * so the user's row (read on every request) keeps its size and its writes, and most users, who
 * never choose, have no row at all: no row is the defaults (every notice, by email, in the club's
 * language). The user's deletion removes its row.
 *
 * - `language`: `fr` or `en`; null is the club's (CLUB_LANGUAGE), so a change of the club's
 *   language reaches everyone who never chose.
 * - `muted_kinds`: the kinds of notice the user does not want, each once. Not checked against the
 *   kinds there are: those are the code's, which may add some; a kind the code no longer knows is
 *   ignored when read.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE notice_preferences (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    language text CHECK (language IN ('fr', 'en')),
    email_enabled boolean NOT NULL DEFAULT true,
    muted_kinds text[] NOT NULL DEFAULT '{}' CHECK (cardinality(muted_kinds) <= 32)
  )`
})
