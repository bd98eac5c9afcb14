import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { updateEntries } from "./0039_cheaper_audit_entries.ts"
import { auditRowActorsByTable } from "./0041_audit_row_actors_by_table.ts"

/**
 * The audit trail's entries of an UPDATE computed with less executor work (decision 0328): a
 * statement's rows, new and old, are paired by their place in the transition tables as 0036 paired
 * them, but by one `unnest` of two arrays instead of two numbered sub-queries, their sorts and a
 * merge join; each row's changes are computed once, by a lateral sub-query, where the filter on
 * changes and the column each computed them again. The entries are 0041's, column for column and in
 * the same order. Everything else is 0041's function, text for text: only the UPDATE branch (0039's
 * `updateEntries`) is replaced, and the migration fails if it is not there to be replaced.
 */
// `unnest` of several arrays pairs their n-th elements and answers them in order; the nested loop
// of the lateral sub-query keeps that order, so the entries are numbered as the rows were written.
const cheaperUpdate =
  `        INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
            subject_user_id, subject_athlete_id, changes)
          SELECT (actor ->> 'userId')::bigint, actor ->> 'role', actor ->> 'requestId', TG_TABLE_NAME, 'update',
            jsonb_strip_nulls(r.written - (SELECT COALESCE(array_agg(k), '{}')
                FROM jsonb_object_keys((SELECT to_jsonb(x) FROM written_rows x LIMIT 1)) k
                WHERE NOT (k = 'id' OR k LIKE '%\\_id' OR k LIKE '%\\_by'))),
            (r.written ->> user_key)::bigint, (r.written ->> athlete_key)::bigint, c.changed
          FROM unnest(ARRAY(SELECT to_jsonb(x) FROM written_rows x), ARRAY(SELECT to_jsonb(x) FROM before_rows x))
              AS r(written, before)
            CROSS JOIN LATERAL (SELECT COALESCE(jsonb_object_agg(n.key,
                CASE WHEN n.key = ANY(secrets) THEN '"(withheld)"'::jsonb ELSE n.value END), '{}') AS changed
              FROM jsonb_each(r.written) n WHERE n.value IS DISTINCT FROM r.before -> n.key) c
          WHERE c.changed <> '{}';`

export const cheaperAuditUpdates = (() => {
  if (!auditRowActorsByTable.includes(updateEntries)) {
    throw new Error("migration 0043: 0041's entries of an UPDATE are not where they were")
  }
  return auditRowActorsByTable.replace(updateEntries, cheaperUpdate)
})()

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(cheaperAuditUpdates)
})
