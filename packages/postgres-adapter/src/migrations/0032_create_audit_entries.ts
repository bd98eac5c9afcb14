import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The audit trail (issue 43 item 4, docs/privacy.md, decisions 0240, 0244 and 0245):
 *
 * - `audit_entries`: one row per row a write inserts, changes or deletes in the tables below, written
 *   by the trigger `audit_write` in the write's own statement (and so its transaction): who (the
 *   transaction-local setting `club.audit_actor` the store sets from core's `AuditActor`, absent for
 *   the server's own writes: actor "system"), what (table, operation, the row's ids, the columns it
 *   changed with their new values, a secret column by its name only), when (`now()`: the
 *   transaction's start on the database's clock) and the request id.
 *   `subject_user_id` and `subject_athlete_id` name the person a row is about, for a person's export
 *   and erasure; `record_ids` (GIN) finds a record's entries.
 * - Append-only: `audit_entries_append_only` refuses every TRUNCATE, a DELETE of an entry younger
 *   than `audit_settings.minimum_days` (which its own trigger refuses to lower), and every UPDATE
 *   but a redaction: a person's erasure may set the actor, request and subject columns to NULL and
 *   a value of `record_ids` or `changes` to `"(erased)"`, nothing else (decision 0245). The
 *   retention purge deletes past its period, never below that floor.
 */
const audited: ReadonlyArray<
  readonly [table: string, secrets: ReadonlyArray<string>, updatedColumns?: ReadonlyArray<string>]
> = [
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
  // A reason for an absence may tell a person's health: named, never copied.
  ["session_replies", ["reason"]],
  ["attendance_marks", []],
  ["groups", []],
  ["group_coaches", []],
  ["memberships", []],
  ["guardianships", []],
  // A receiver parked after a failed delivery (`parked_until`) is the dispatcher's bookkeeping, not a
  // change anyone made: only what a webhook is (its address and secret) is audited when updated.
  ["webhooks", ["secret"], ["url", "secret"]],
  ["feed_tokens", ["token_hash"]],
  ["notice_preferences", []],
  ["tasks", []]
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE audit_entries (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor_user_id bigint,
    actor_role text,
    request_id text,
    record_type text NOT NULL,
    operation text NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
    record_ids jsonb NOT NULL,
    subject_user_id bigint,
    subject_athlete_id bigint,
    changes jsonb NOT NULL
  )`
  yield* sql`CREATE INDEX audit_entries_at_idx ON audit_entries (at)`
  yield* sql`CREATE INDEX audit_entries_actor_idx ON audit_entries (actor_user_id, id)`
  yield* sql`CREATE INDEX audit_entries_subject_user_idx ON audit_entries (subject_user_id) WHERE subject_user_id IS NOT NULL`
  yield* sql`CREATE INDEX audit_entries_subject_athlete_idx ON audit_entries (subject_athlete_id)
    WHERE subject_athlete_id IS NOT NULL`
  yield* sql`CREATE INDEX audit_entries_record_ids_idx ON audit_entries USING gin (record_ids jsonb_path_ops)`
  yield* sql`CREATE TABLE audit_settings (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    minimum_days integer NOT NULL CHECK (minimum_days >= 1)
  )`
  yield* sql`INSERT INTO audit_settings (minimum_days) VALUES (30)`
  yield* sql.unsafe(`CREATE FUNCTION audit_settings_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'UPDATE' OR NEW.minimum_days < OLD.minimum_days THEN
        RAISE EXCEPTION 'the audit trail''s minimum period may only be raised' USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$`)
  yield* sql`CREATE TRIGGER audit_settings_guard BEFORE UPDATE OR DELETE ON audit_settings
    FOR EACH ROW EXECUTE FUNCTION audit_settings_guard()`
  yield* sql`CREATE TRIGGER audit_settings_no_truncate BEFORE TRUNCATE ON audit_settings
    FOR EACH STATEMENT EXECUTE FUNCTION audit_settings_guard()`
  // A redaction (a person's erasure) may blank what an entry says, never rewrite it: see `audit_redacts`.
  yield* sql.unsafe(
    `CREATE FUNCTION audit_redacts(before jsonb, after jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(before) k)
        IS NOT DISTINCT FROM (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(after) k)
      AND NOT EXISTS (SELECT 1 FROM jsonb_each(after) a
        WHERE a.value IS DISTINCT FROM before -> a.key AND a.value <> '"(erased)"'::jsonb)
  $$`
  )
  yield* sql.unsafe(`CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE'
        AND OLD.at < now() - make_interval(days => (SELECT minimum_days FROM audit_settings)) THEN
        RETURN OLD;
      END IF;
      IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.record_type = OLD.record_type
        AND NEW.operation = OLD.operation
        AND (NEW.actor_user_id IS NULL OR NEW.actor_user_id = OLD.actor_user_id)
        AND (NEW.actor_role IS NULL OR NEW.actor_role = OLD.actor_role)
        AND (NEW.request_id IS NULL OR NEW.request_id = OLD.request_id)
        AND (NEW.subject_user_id IS NULL OR NEW.subject_user_id = OLD.subject_user_id)
        AND (NEW.subject_athlete_id IS NULL OR NEW.subject_athlete_id = OLD.subject_athlete_id)
        AND audit_redacts(OLD.record_ids, NEW.record_ids) AND audit_redacts(OLD.changes, NEW.changes) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'audit entries are append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`)
  yield* sql`CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
    FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`
  yield* sql`CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
    FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`
  // The secret columns are the trigger's arguments: their names are kept, their values never.
  yield* sql.unsafe(`CREATE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb := NULLIF(current_setting('club.audit_actor', true), '')::jsonb;
      secrets text[] := TG_ARGV;
      new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
      old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
      the_row jsonb := COALESCE(new_row, old_row);
      ids jsonb;
      changed jsonb := '{}';
    BEGIN
      -- A restore (dataTransfer's import) brings the rows with their own entries.
      IF current_setting('club.audit_restore', true) = 'on' THEN RETURN NULL; END IF;
      SELECT COALESCE(jsonb_object_agg(key, value), '{}') INTO ids FROM jsonb_each(the_row)
        WHERE (key = 'id' OR key LIKE '%\\_id' OR key LIKE '%\\_by') AND jsonb_typeof(value) IN ('number', 'string');
      IF TG_OP <> 'DELETE' THEN
        SELECT COALESCE(jsonb_object_agg(n.key, CASE WHEN n.key = ANY(secrets) THEN '"(withheld)"'::jsonb ELSE n.value END),
          '{}') INTO changed
        FROM jsonb_each(new_row) n WHERE old_row IS NULL OR n.value IS DISTINCT FROM old_row -> n.key;
        IF TG_OP = 'UPDATE' AND changed = '{}' THEN RETURN NULL; END IF;
      END IF;
      INSERT INTO audit_entries (actor_user_id, actor_role, request_id, record_type, operation, record_ids,
        subject_user_id, subject_athlete_id, changes)
      VALUES ((actor ->> 'userId')::bigint, actor ->> 'role', actor ->> 'requestId', TG_TABLE_NAME, lower(TG_OP), ids,
        CASE WHEN TG_TABLE_NAME = 'users' THEN (the_row ->> 'id')::bigint ELSE (the_row ->> 'user_id')::bigint END,
        CASE WHEN TG_TABLE_NAME = 'athletes' THEN (the_row ->> 'id')::bigint ELSE (the_row ->> 'athlete_id')::bigint END,
        changed);
      RETURN NULL;
    END $$`)
  for (const [table, secrets, updatedColumns] of audited) {
    const args = secrets.map((s) => `'${s}'`).join(", ")
    const update = updatedColumns === undefined ? "UPDATE" : `UPDATE OF ${updatedColumns.join(", ")}`
    yield* sql.unsafe(`CREATE TRIGGER ${table}_audit AFTER INSERT OR ${update} OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION audit_write(${args})`)
  }
})
