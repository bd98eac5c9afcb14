/**
 * The audit trail's statement trigger function, `audit_write_statement()` (migration 0036, decision
 * 0313): the rows a statement wrote, read from its transition tables, and their entries in one
 * `INSERT ... SELECT`. With `rowActors` (migration 0037, decision 0316), an INSERT's rows may each
 * name their own actor: the transaction-local setting `club.audit_row_actors`, a JSON object
 * `{"table": ..., "actors": [...]}`, gives the n-th row the n-th actor (or, where that is null,
 * the statement's `club.audit_actor`) when it names the trigger's table and has one actor per row
 * written; otherwise it is not read. A gathered INSERT of several requests' creations names them so.
 * Its inserts into a table without secrets take the row's JSON as their changes as it is.
 * Migration 0039 (decision 0319) replaces the function by one doing less per row and per
 * statement; this one stays what 0036 and 0037 created, and 0039's test compares the two.
 */
export const auditWriteStatementFunction = (options: { readonly rowActors: boolean }): string => {
  // The rows a statement wrote, one per entry: `written` as the statement left it (NULL for a delete),
  // `before` as it was (NULL for an insert), `ord` their order in the statement.
  const rowsOf = {
    INSERT: `SELECT row_number() OVER () AS ord, to_jsonb(x) AS written, NULL::jsonb AS before FROM written_rows x`,
    DELETE: `SELECT row_number() OVER () AS ord, NULL::jsonb AS written, to_jsonb(x) AS before FROM before_rows x`,
    UPDATE: `SELECT n.ord, n.written, o.before
      FROM (SELECT row_number() OVER () AS ord, to_jsonb(x) AS written FROM written_rows x) n
      JOIN (SELECT row_number() OVER () AS ord, to_jsonb(x) AS before FROM before_rows x) o USING (ord)`
  }
  // The actor of the row `r`: the statement's, or with `rowActors` an INSERT's row's own.
  const actorOf = (operation: keyof typeof rowsOf) =>
    options.rowActors && operation === "INSERT"
      ? `COALESCE(NULLIF(row_actors -> (r.ord::int - 1), 'null'::jsonb), actor)`
      : "actor"
  // With `rowActors`, an insert into a table without secrets changed every column: its changes are
  // the row's JSON as it is, not rebuilt key by key.
  const insertAsItIs = (operation: keyof typeof rowsOf) =>
    options.rowActors && operation === "INSERT" ? " WHEN COALESCE(cardinality(secrets), 0) = 0 THEN r.written" : ""
  // One INSERT ... SELECT, 0032's entry for each row; `the_row` is whichever version exists, which
  // the ids and the subjects are read from.
  const entriesOf = (operation: keyof typeof rowsOf) =>
    `INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
        subject_user_id, subject_athlete_id, changes)
      SELECT (w.actor ->> 'userId')::bigint, w.actor ->> 'role', w.actor ->> 'requestId', TG_TABLE_NAME, '${operation.toLowerCase()}',
        (SELECT COALESCE(jsonb_object_agg(i.key, i.value), '{}') FROM jsonb_each(w.the_row) i
          WHERE (i.key = 'id' OR i.key LIKE '%\\_id' OR i.key LIKE '%\\_by') AND jsonb_typeof(i.value) IN ('number', 'string')),
        CASE WHEN TG_TABLE_NAME = 'users' THEN (w.the_row ->> 'id')::bigint ELSE (w.the_row ->> 'user_id')::bigint END,
        CASE WHEN TG_TABLE_NAME = 'athletes' THEN (w.the_row ->> 'id')::bigint ELSE (w.the_row ->> 'athlete_id')::bigint END,
        w.changed
      FROM (
        SELECT r.ord, ${actorOf(operation)} AS actor, COALESCE(r.written, r.before) AS the_row,
          CASE WHEN r.written IS NULL THEN '{}'::jsonb${insertAsItIs(operation)} ELSE
          (SELECT COALESCE(jsonb_object_agg(n.key, CASE WHEN n.key = ANY(secrets) THEN '"(withheld)"'::jsonb ELSE n.value END),
            '{}') FROM jsonb_each(r.written) n WHERE r.before IS NULL OR n.value IS DISTINCT FROM r.before -> n.key)
          END AS changed
        FROM (${rowsOf[operation]}) r
      ) w
      ${operation === "UPDATE" ? "WHERE w.changed <> '{}'" : ""}
      ORDER BY w.ord;`
  // Each branch names only the transition tables its operation's trigger has: PL/pgSQL plans a
  // statement when it first runs, so the others' are never looked for.
  return `${
    options.rowActors ? "CREATE OR REPLACE" : "CREATE"
  } FUNCTION audit_write_statement() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb;
      secrets text[] := TG_ARGV;${options.rowActors ? "\n      row_actors jsonb;" : ""}
    BEGIN
      -- A restore (dataTransfer's import) brings the rows with their own entries.
      IF current_setting('club.audit_restore', true) = 'on' THEN RETURN NULL; END IF;
      -- A statement that wrote no row (a CTE's update of no activity) is done before the entries' plan.
      IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT FROM before_rows) THEN RETURN NULL; END IF;
      ELSIF NOT EXISTS (SELECT FROM written_rows) THEN RETURN NULL; END IF;
      actor := NULLIF(current_setting('club.audit_actor', true), '')::jsonb;
      IF TG_OP = 'INSERT' THEN${
    options.rowActors
      ? `
        row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;
        IF row_actors ->> 'table' IS DISTINCT FROM TG_TABLE_NAME
          OR jsonb_typeof(row_actors -> 'actors') IS DISTINCT FROM 'array' THEN
          row_actors := NULL;
        ELSIF jsonb_array_length(row_actors -> 'actors') <> (SELECT count(*) FROM written_rows) THEN
          row_actors := NULL;
        END IF;
        row_actors := row_actors -> 'actors';`
      : ""
  }
        ${entriesOf("INSERT")}
      ELSIF TG_OP = 'UPDATE' THEN
        ${entriesOf("UPDATE")}
      ELSE
        ${entriesOf("DELETE")}
      END IF;
      RETURN NULL;
    END $$`
}
