import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The audit trail's statement trigger function (migrations 0036 and 0037) written again for less
 * work in the database per statement and per row (issue 39, decision 0319); its entries are the
 * same, column for column, and so are its triggers.
 *
 * - A row's ids are its JSON less the columns that are not ids (`jsonb - text[]`) with its nulls
 *   stripped, instead of a subquery per row unnesting the row key by key into an aggregate. The
 *   columns that are not ids are read once per statement from the first row's keys: every row of
 *   a transition table has the same columns, and an id column is a number or a string (bigint or
 *   uuid in every audited table), so what is left is what 0032's filter kept.
 * - An insert's changes are its row's JSON as it is, its secret columns replaced by `"(withheld)"`
 *   with one `||` of an object built once per statement (before, only a table without secrets was
 *   spared the per-row rebuild).
 * - An insert runs one statement where it ran three: the count of rows that `club.audit_row_actors`
 *   must match and the keys are sub-queries of the entries' INSERT, computed once, and an insert
 *   of no row inserts no entry without an `EXISTS` of its own. An update or a delete keeps its
 *   `EXISTS` check, for the statements of no row that a CTE's write runs.
 * - The subjects are read by a key chosen once per statement (`id` of `users` and `athletes`,
 *   `user_id` and `athlete_id` of the others), not a `CASE` on the table's name per row.
 *
 * An update's changes are still its columns compared one by one with the old row's.
 */
/**
 * The UPDATE branch's entries, as 0039 writes them: each new row paired with its old one by their
 * numbers in the transition tables, its changes the columns that differ. Migration 0043 replaces
 * exactly this text.
 */
export const updateEntries =
  `        INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
            subject_user_id, subject_athlete_id, changes)
          SELECT (actor ->> 'userId')::bigint, actor ->> 'role', actor ->> 'requestId', TG_TABLE_NAME, 'update',
            jsonb_strip_nulls(w.written - s.other_keys), (w.written ->> user_key)::bigint,
            (w.written ->> athlete_key)::bigint, w.changed
          FROM (SELECT
              (SELECT COALESCE(array_agg(k), '{}') FROM jsonb_object_keys((SELECT to_jsonb(x) FROM written_rows x LIMIT 1)) k
                WHERE NOT (k = 'id' OR k LIKE '%\\_id' OR k LIKE '%\\_by')) AS other_keys
            ) s,
            (SELECT r.ord, r.written,
                (SELECT COALESCE(jsonb_object_agg(n.key, CASE WHEN n.key = ANY(secrets) THEN '"(withheld)"'::jsonb ELSE n.value END),
                  '{}') FROM jsonb_each(r.written) n WHERE n.value IS DISTINCT FROM r.before -> n.key) AS changed
              FROM (SELECT n.ord, n.written, o.before
                FROM (SELECT row_number() OVER () AS ord, to_jsonb(x) AS written FROM written_rows x) n
                JOIN (SELECT row_number() OVER () AS ord, to_jsonb(x) AS before FROM before_rows x) o USING (ord)) r
            ) w
          WHERE w.changed <> '{}'
          ORDER BY w.ord;`

export const cheaperAuditWriteStatement = `CREATE OR REPLACE FUNCTION audit_write_statement() RETURNS trigger
  LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb;
      secrets text[] := TG_ARGV;
      row_actors jsonb;
      user_key text := CASE WHEN TG_TABLE_NAME = 'users' THEN 'id' ELSE 'user_id' END;
      athlete_key text := CASE WHEN TG_TABLE_NAME = 'athletes' THEN 'id' ELSE 'athlete_id' END;
    BEGIN
      -- A restore (dataTransfer's import) brings the rows with their own entries.
      IF current_setting('club.audit_restore', true) = 'on' THEN RETURN NULL; END IF;
      actor := NULLIF(current_setting('club.audit_actor', true), '')::jsonb;
      IF TG_OP = 'INSERT' THEN
        -- Each row's own actor (decision 0316), when the setting names this table and, below, has
        -- one actor per row written.
        row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;
        IF row_actors ->> 'table' IS DISTINCT FROM TG_TABLE_NAME
          OR jsonb_typeof(row_actors -> 'actors') IS DISTINCT FROM 'array' THEN
          row_actors := NULL;
        END IF;
        row_actors := row_actors -> 'actors';
        -- The sub-queries of \`s\` name no row of \`r\`: each is computed once, when first read.
        INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
            subject_user_id, subject_athlete_id, changes)
          SELECT (a.actor ->> 'userId')::bigint, a.actor ->> 'role', a.actor ->> 'requestId', TG_TABLE_NAME, 'insert',
            jsonb_strip_nulls(r.written - s.other_keys), (r.written ->> user_key)::bigint,
            (r.written ->> athlete_key)::bigint,
            CASE WHEN cardinality(secrets) > 0 THEN r.written || s.withheld ELSE r.written END
          FROM (SELECT
              (SELECT COALESCE(array_agg(k), '{}') FROM jsonb_object_keys((SELECT to_jsonb(x) FROM written_rows x LIMIT 1)) k
                WHERE NOT (k = 'id' OR k LIKE '%\\_id' OR k LIKE '%\\_by')) AS other_keys,
              (SELECT COALESCE(jsonb_object_agg(k, '"(withheld)"'::jsonb), '{}')
                FROM jsonb_object_keys((SELECT to_jsonb(x) FROM written_rows x LIMIT 1)) k WHERE k = ANY(secrets)) AS withheld,
              CASE WHEN jsonb_array_length(row_actors) = (SELECT count(*) FROM written_rows) THEN row_actors END AS row_actors
            ) s,
            (SELECT row_number() OVER () AS ord, to_jsonb(x) AS written FROM written_rows x) r
            CROSS JOIN LATERAL (SELECT COALESCE(NULLIF(s.row_actors -> (r.ord::int - 1), 'null'::jsonb), actor) AS actor) a
          ORDER BY r.ord;
      ELSIF TG_OP = 'UPDATE' THEN
        -- A statement that wrote no row (a CTE's update of no activity) is done before the entries' plan.
        IF NOT EXISTS (SELECT FROM written_rows) THEN RETURN NULL; END IF;
${updateEntries}
      ELSE
        IF NOT EXISTS (SELECT FROM before_rows) THEN RETURN NULL; END IF;
        INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
            subject_user_id, subject_athlete_id, changes)
          SELECT (actor ->> 'userId')::bigint, actor ->> 'role', actor ->> 'requestId', TG_TABLE_NAME, 'delete',
            jsonb_strip_nulls(r.before - s.other_keys), (r.before ->> user_key)::bigint,
            (r.before ->> athlete_key)::bigint, '{}'::jsonb
          FROM (SELECT
              (SELECT COALESCE(array_agg(k), '{}') FROM jsonb_object_keys((SELECT to_jsonb(x) FROM before_rows x LIMIT 1)) k
                WHERE NOT (k = 'id' OR k LIKE '%\\_id' OR k LIKE '%\\_by')) AS other_keys
            ) s,
            (SELECT row_number() OVER () AS ord, to_jsonb(x) AS before FROM before_rows x) r
          ORDER BY r.ord;
      END IF;
      RETURN NULL;
    END $$`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(cheaperAuditWriteStatement)
})
