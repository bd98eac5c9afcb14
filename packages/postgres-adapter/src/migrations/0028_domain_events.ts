import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Every domain event in the outbox (issue 42 item 6): sessions, series, activities and users.
 *
 * - The types gain the twelve of docs/events.md.
 * - An event names its session, its group, or neither: a series' or user's event (and a detached
 *   activity's deletion) is in the club's stream, delivered in order with the other events that
 *   name neither (decision 0281). Never both.
 * - `webhook_deliveries_club_waiting_idx` finds an earlier waiting event of the club's stream for
 *   the same webhook, as `webhook_deliveries_waiting_idx` does for a session's.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE attendance_events DROP CONSTRAINT attendance_events_type_check`
  yield* sql`ALTER TABLE attendance_events ADD CONSTRAINT attendance_events_type_check CHECK (type IN
    ('reply', 'promotion', 'cancellation', 'presence', 'membershipStarted', 'membershipEnded',
     'sessionCreated', 'sessionChanged', 'sessionCancelled', 'seriesCreated', 'seriesChanged', 'seriesCancelled',
     'activityCreated', 'activityChanged', 'activityDeleted', 'userCreated', 'userChanged', 'userDeleted'))`
  yield* sql`ALTER TABLE attendance_events DROP CONSTRAINT attendance_events_one_subject`
  yield* sql`ALTER TABLE attendance_events ADD CONSTRAINT attendance_events_one_subject
    CHECK (session_id IS NULL OR group_id IS NULL)`
  yield* sql`CREATE INDEX webhook_deliveries_club_waiting_idx ON webhook_deliveries (webhook_id, event_id)
    WHERE pending AND session_id IS NULL AND group_id IS NULL`
})
