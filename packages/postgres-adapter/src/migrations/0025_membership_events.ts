import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Membership events in the outbox (issue 41): a membership started or ended is delivered to the
 * webhooks like an attendance event, written in the transaction of the change.
 *
 * - `attendance_events.group_id`: the group of a membership event, which names no session; an
 *   event names exactly one of the two. The types gain `membershipStarted` and `membershipEnded`.
 * - `webhook_deliveries.group_id`: deliveries are in order per session, and now per group too:
 *   a group's event waits for the earlier ones of the same group (`webhook_deliveries_group_waiting_idx`
 *   finds them, as `webhook_deliveries_waiting_idx` does for a session's).
 * - `webhook_attempts.group_id`: the delivery log names the group of a membership event.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE attendance_events ALTER COLUMN session_id DROP NOT NULL, ADD COLUMN group_id bigint`
  yield* sql`ALTER TABLE attendance_events DROP CONSTRAINT attendance_events_type_check`
  yield* sql`ALTER TABLE attendance_events ADD CONSTRAINT attendance_events_type_check CHECK (type IN
    ('reply', 'promotion', 'cancellation', 'presence', 'membershipStarted', 'membershipEnded'))`
  yield* sql`ALTER TABLE attendance_events ADD CONSTRAINT attendance_events_one_subject
    CHECK ((session_id IS NULL) <> (group_id IS NULL))`
  yield* sql`ALTER TABLE webhook_deliveries ALTER COLUMN session_id DROP NOT NULL, ADD COLUMN group_id bigint`
  yield* sql`CREATE INDEX webhook_deliveries_group_waiting_idx ON webhook_deliveries (webhook_id, group_id, event_id)
    WHERE pending AND group_id IS NOT NULL`
  yield* sql`ALTER TABLE webhook_attempts ALTER COLUMN session_id DROP NOT NULL, ADD COLUMN group_id bigint`
})
