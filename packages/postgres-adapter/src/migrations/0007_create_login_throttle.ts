import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Login throttling, one row per key (`address:<a>`, `name-at-address:[name, a]`): its failures
 * and the time of the last one (epoch milliseconds, as the LoginAttempts port speaks them). One
 * row per key, so that an attempt's admission locks it: concurrent attempts, on any instance, are
 * admitted one after the other.
 *
 * `login_failures` (0006) is no longer written. It is left in place so that instances of the
 * previous version, still running while this one starts, keep working; a later migration drops it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE login_throttle (
    key text PRIMARY KEY,
    failures integer NOT NULL,
    last_failure_at_ms bigint NOT NULL
  )`
  // Keys whose last failure left the window are forgotten after each failed login: this finds them.
  yield* sql`CREATE INDEX login_throttle_last_failure_at_idx ON login_throttle (last_failure_at_ms)`
})
