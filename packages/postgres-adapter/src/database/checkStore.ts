import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One round trip that reads a table every authenticated request reads, by the same name and
 * through the same pool as the requests: a readiness check. It fails where the requests would,
 * when the database does not answer but also when it answers without the app's schema in reach (a
 * `search_path` changed under the session, a table gone), which `SELECT 1` would not see.
 */
export const checkStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1 FROM users LIMIT 1`
}).pipe(Effect.withSpan("Database.checkStore"))
