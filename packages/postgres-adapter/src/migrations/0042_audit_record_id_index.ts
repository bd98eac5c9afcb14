import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The audit trail is read by a record's `id` only (`GET /audit?recordId=`, a person's export and
 * erasure), never by another of its keys: the GIN index over every key of `record_ids` is replaced
 * by a btree over that one key, on the entries that have it. An entry of a table keyed otherwise (a
 * session's athletes, the most written) then costs no index entry at all, and the GIN index's
 * pending list is no longer flushed by a write (docs/decisions/0324). Readers compare
 * `record_ids -> 'id'` with a jsonb value, which matches numbers by value as `@>` did.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX audit_entries_record_ids_idx`
  yield* sql`CREATE INDEX audit_entries_record_id_idx ON audit_entries ((record_ids -> 'id')) WHERE record_ids ? 'id'`
})
