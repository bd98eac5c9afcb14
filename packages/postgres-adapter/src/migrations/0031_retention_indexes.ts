import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What the retention purge (issue 43, docs/privacy.md) finds its rows by, a batch at a time, oldest
 * first, without reading what it keeps:
 *
 * - `attendance_events_occurred_at_idx`, `webhook_attempts_at_idx`: events and attempts by age.
 * - `webhook_deliveries_event_idx`: an event's deliveries, which its deletion takes along
 *   (ON DELETE CASCADE); the primary key leads with the webhook, so without it each deletion reads
 *   every delivery.
 * - `memberships_until_idx`: ended memberships by their last day.
 *
 * Idempotency keys (`idempotency_keys_expires_at_idx`) and login attempts (`login_throttle_last_failure_at_idx`,
 * `login_failures_failed_at_idx`) have theirs already.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX attendance_events_occurred_at_idx ON attendance_events (occurred_at)`
  yield* sql`CREATE INDEX webhook_attempts_at_idx ON webhook_attempts (at)`
  yield* sql`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`
  yield* sql`CREATE INDEX memberships_until_idx ON memberships (until_date) WHERE until_date IS NOT NULL`
})
