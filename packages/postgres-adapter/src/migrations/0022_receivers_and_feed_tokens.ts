import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"

/**
 * Issue 37: one receiver's failures delay no other.
 *
 * - `webhooks.parked_until`: after a failed attempt the webhook is parked until that attempt's
 *   retry is due (a circuit breaker): no delivery to it is claimed meanwhile, so a receiver that
 *   does not answer costs one attempt per backoff, not one per waiting event.
 * - `webhook_deliveries.dead`: a delivery given up after its last attempt (WEBHOOK_MAX_ATTEMPTS);
 *   no longer pending, so the later events of its session go on; a replay makes it due again.
 * - `webhook_deliveries_leased_idx`: finds whether a webhook has an attempt in flight, which a claim
 *   passes over (one attempt per receiver at a time).
 *
 * And feed tokens (issue 37):
 * - `feed_tokens.issued_at` (Unix seconds, as `users.tokens_valid_after`): a token issued before
 *   its user's tokens were ended (a password or role change) no longer opens a feed. Tokens that
 *   exist now count as issued now.
 * - The kept answers of `POST /planning/feed-token` sent with an `Idempotency-Key` held the token
 *   in clear; that endpoint now refuses keys, and the answers kept so far are dropped (found by
 *   their fingerprint: the method and path, and an empty body).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhooks ADD COLUMN parked_until timestamptz`
  yield* sql`ALTER TABLE webhook_deliveries ADD COLUMN dead boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE feed_tokens ADD COLUMN issued_at bigint NOT NULL DEFAULT 0`
  yield* sql`UPDATE feed_tokens SET issued_at = extract(epoch FROM now())::bigint`
  const feedTokenAnswer = createHash("sha256").update("POST /planning/feed-token\n").digest("base64url")
  yield* sql`DELETE FROM idempotency_keys WHERE fingerprint = ${feedTokenAnswer}`
  yield* sql`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (webhook_id, leased_until)
    WHERE leased_until IS NOT NULL`
})
