import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Idempotency keys of REST writes, one row per caller (user id) and key: which request claimed it
 * (its fingerprint, and `attempt`, this hold of it), when, until when it is kept, and once answered,
 * the answer (status, headers, body) to replay. No foreign key to users: a key outlives nothing but
 * its retention, and user ids are never given out again. Times are epoch milliseconds, as the
 * IdempotencyKeys port speaks them.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE idempotency_keys (
    user_id bigint NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    attempt text NOT NULL,
    claimed_at_ms bigint NOT NULL,
    expires_at_ms bigint NOT NULL,
    status integer,
    headers jsonb,
    body bytea,
    PRIMARY KEY (user_id, key)
  )`
  // Expired keys are dropped a few at a time with each answer kept: this finds them.
  yield* sql`CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at_ms)`
})
