import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** One round trip to the database, for a readiness check: fails when it does not answer. */
export const pingDatabase = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
}).pipe(Effect.withSpan("Database.ping"))
