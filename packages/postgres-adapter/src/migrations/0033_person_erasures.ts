import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A person's erasure (issue 43, docs/privacy.md):
 *
 * - `person_erasures`, the ledger of erased people: ids only, never a name. Its row is written in
 *   the erasure's last transaction, so a second erasure (or another instance's) finds it and
 *   changes nothing; after a backup is restored, the ledger kept outside it is replayed.
 * - The outbox's types gain `personErased`, in the club's stream.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE person_erasures (
    user_id bigint PRIMARY KEY,
    athlete_id bigint,
    coach_id bigint,
    admin_id bigint,
    erased_at_ms bigint NOT NULL
  )`
  yield* sql`ALTER TABLE attendance_events DROP CONSTRAINT attendance_events_type_check`
  yield* sql`ALTER TABLE attendance_events ADD CONSTRAINT attendance_events_type_check CHECK (type IN
    ('reply', 'promotion', 'cancellation', 'presence', 'membershipStarted', 'membershipEnded',
     'sessionCreated', 'sessionChanged', 'sessionCancelled', 'seriesCreated', 'seriesChanged', 'seriesCancelled',
     'activityCreated', 'activityChanged', 'activityDeleted', 'userCreated', 'userChanged', 'userDeleted',
     'personErased'))`
})
