import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The audit trail (migration 0032) written once per statement instead of once per row (issue 38
 * item 7, decision 0313): on each audited table but `webhooks`, three `AFTER ... FOR EACH STATEMENT`
 * triggers (one per operation: a trigger with transition tables names one event) read the rows the
 * statement wrote from its transition tables and write their entries in one `INSERT ... SELECT`.
 * A row trigger runs its function, its queries and its insert once per row; a statement writing one
 * session and its athletes now runs one insert per table it wrote.
 *
 * The entries are 0032's, column for column: the actor from `club.audit_actor`, the row's ids, the
 * columns an insert set or an update changed with their new values (a secret by its name only), an
 * update that changed nothing leaves no entry, a restore (`club.audit_restore`) none at all.
 * An update's old and new rows are paired by their position in the transition tables: PostgreSQL
 * appends a row's old and new versions to the two together, so the n-th old row is the n-th new
 * row's, even when a statement changes a row's key.
 *
 * `webhooks` keeps 0032's row trigger: its updates are audited only when they name the address or
 * the secret (`UPDATE OF url, secret`), and PostgreSQL refuses transition tables to a trigger with a
 * column list. Its writes are an admin's, rare.
 */
const audited: ReadonlyArray<readonly [table: string, secrets: ReadonlyArray<string>]> = [
  ["athletes", []],
  ["coaches", []],
  ["admins", []],
  ["users", ["password_hash"]],
  ["sessions", []],
  ["session_athletes", []],
  ["activities", []],
  ["series", []],
  ["series_cancellations", []],
  ["session_attendance", []],
  ["session_replies", ["reason"]],
  ["attendance_marks", []],
  ["groups", []],
  ["group_coaches", []],
  ["memberships", []],
  ["guardianships", []],
  ["feed_tokens", ["token_hash"]],
  ["notice_preferences", []],
  ["tasks", []]
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The rows a statement wrote, one per entry: `written` as the statement left it (NULL for a delete),
  // `before` as it was (NULL for an insert), `ord` their order in the statement.
  const rowsOf = {
    INSERT: `SELECT row_number() OVER () AS ord, to_jsonb(x) AS written, NULL::jsonb AS before FROM written_rows x`,
    DELETE: `SELECT row_number() OVER () AS ord, NULL::jsonb AS written, to_jsonb(x) AS before FROM before_rows x`,
    UPDATE: `SELECT n.ord, n.written, o.before
      FROM (SELECT row_number() OVER () AS ord, to_jsonb(x) AS written FROM written_rows x) n
      JOIN (SELECT row_number() OVER () AS ord, to_jsonb(x) AS before FROM before_rows x) o USING (ord)`
  }
  // One INSERT ... SELECT, 0032's entry for each row; `the_row` is whichever version exists, which
  // the ids and the subjects are read from.
  const entriesOf = (operation: keyof typeof rowsOf) =>
    `INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
        subject_user_id, subject_athlete_id, changes)
      SELECT (actor ->> 'userId')::bigint, actor ->> 'role', actor ->> 'requestId', TG_TABLE_NAME, '${operation.toLowerCase()}',
        (SELECT COALESCE(jsonb_object_agg(i.key, i.value), '{}') FROM jsonb_each(w.the_row) i
          WHERE (i.key = 'id' OR i.key LIKE '%\\_id' OR i.key LIKE '%\\_by') AND jsonb_typeof(i.value) IN ('number', 'string')),
        CASE WHEN TG_TABLE_NAME = 'users' THEN (w.the_row ->> 'id')::bigint ELSE (w.the_row ->> 'user_id')::bigint END,
        CASE WHEN TG_TABLE_NAME = 'athletes' THEN (w.the_row ->> 'id')::bigint ELSE (w.the_row ->> 'athlete_id')::bigint END,
        w.changed
      FROM (
        SELECT r.ord, COALESCE(r.written, r.before) AS the_row, CASE WHEN r.written IS NULL THEN '{}'::jsonb ELSE
          (SELECT COALESCE(jsonb_object_agg(n.key, CASE WHEN n.key = ANY(secrets) THEN '"(withheld)"'::jsonb ELSE n.value END),
            '{}') FROM jsonb_each(r.written) n WHERE r.before IS NULL OR n.value IS DISTINCT FROM r.before -> n.key)
          END AS changed
        FROM (${rowsOf[operation]}) r
      ) w
      ${operation === "UPDATE" ? "WHERE w.changed <> '{}'" : ""}
      ORDER BY w.ord;`
  // Each branch names only the transition tables its operation's trigger has: PL/pgSQL plans a
  // statement when it first runs, so the others' are never looked for.
  yield* sql.unsafe(`CREATE FUNCTION audit_write_statement() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb;
      secrets text[] := TG_ARGV;
    BEGIN
      -- A restore (dataTransfer's import) brings the rows with their own entries.
      IF current_setting('club.audit_restore', true) = 'on' THEN RETURN NULL; END IF;
      -- A statement that wrote no row (a CTE's update of no activity) is done before the entries' plan.
      IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT FROM before_rows) THEN RETURN NULL; END IF;
      ELSIF NOT EXISTS (SELECT FROM written_rows) THEN RETURN NULL; END IF;
      actor := NULLIF(current_setting('club.audit_actor', true), '')::jsonb;
      IF TG_OP = 'INSERT' THEN
        ${entriesOf("INSERT")}
      ELSIF TG_OP = 'UPDATE' THEN
        ${entriesOf("UPDATE")}
      ELSE
        ${entriesOf("DELETE")}
      END IF;
      RETURN NULL;
    END $$`)
  for (const [table, secrets] of audited) {
    const args = secrets.map((s) => `'${s}'`).join(", ")
    yield* sql.unsafe(`DROP TRIGGER ${table}_audit ON ${table}`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_audit_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_write_statement(${args})`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_audit_update AFTER UPDATE ON ${table}
      REFERENCING OLD TABLE AS before_rows NEW TABLE AS written_rows
      FOR EACH STATEMENT EXECUTE FUNCTION audit_write_statement(${args})`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_audit_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS before_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_write_statement(${args})`)
  }
})
