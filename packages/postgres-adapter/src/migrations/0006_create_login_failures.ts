import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Failed logins, one row per failure and key (`name:<user>`, `client:<address>`), in the database
 * so that every server instance throttles on the same counts. Times are epoch milliseconds, as the
 * LoginAttempts port speaks them.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE login_failures (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text NOT NULL,
    failed_at_ms bigint NOT NULL
  )`
  yield* sql`CREATE INDEX login_failures_key_failed_at_idx ON login_failures (key, failed_at_ms)`
  // Failures older than the window are forgotten on every new failure: this finds them.
  yield* sql`CREATE INDEX login_failures_failed_at_idx ON login_failures (failed_at_ms)`
})
