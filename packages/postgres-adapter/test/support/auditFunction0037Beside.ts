import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { auditWriteStatementFunction } from "../../src/migrations/auditWriteStatement.ts"

/**
 * Migration 0037's audit function, the reference the later ones (0039, 0041, 0043) must agree with,
 * run by triggers beside the current ones on every audited table and writing into a copy of the
 * table, `audit_entries_0037` (the triggers are named after the current ones: a statement's
 * triggers run in their names' order, so each statement's entries are numbered alike in both).
 * 0041's form of the row actors (a list per table) is read as 0037's for the table written.
 * Answers the number of triggers set beside, and removes them, the function and the copy after.
 */
export const withAuditFunction0037Beside = <A, E, R>(
  body: (triggers: number) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | SqlError, R | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE audit_entries_0037 (LIKE audit_entries INCLUDING DEFAULTS INCLUDING IDENTITY)`
    yield* sql.unsafe(
      auditWriteStatementFunction({ rowActors: true })
        .replace("audit_write_statement()", "audit_write_statement_0037()")
        .replace(
          "row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;",
          `row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;
            IF jsonb_typeof(row_actors -> 'tables') = 'object' THEN
              row_actors := jsonb_build_object('table', TG_TABLE_NAME, 'actors', row_actors -> 'tables' -> TG_TABLE_NAME);
            END IF;`
        )
        .replaceAll("INSERT INTO audit_entries ", "INSERT INTO audit_entries_0037 ")
    )
    const triggers = yield* sql<{ name: string; definition: string }>`SELECT t.tgname AS name,
        pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE p.proname = 'audit_write_statement'`
    for (const { definition, name } of triggers) {
      yield* sql.unsafe(
        definition.replace(`TRIGGER ${name} `, `TRIGGER ${name}_zz_0037 `)
          .replace("audit_write_statement(", "audit_write_statement_0037(")
      )
    }
    const removed = Effect.gen(function*() {
      for (const { name } of triggers) {
        yield* sql.unsafe(`DROP TRIGGER ${name}_zz_0037 ON ${name.replace(/_audit_[a-z]+$/u, "")}`)
      }
      yield* sql`DROP FUNCTION audit_write_statement_0037()`
      yield* sql`DROP TABLE audit_entries_0037`
    })
    return yield* Effect.ensuring(body(triggers.length), Effect.orDie(removed))
  })

/** The columns an entry of either function is compared by. */
export const comparedAuditColumns = `at, actor_user_id, actor_role, request_id, record_type, operation, record_ids,
  subject_user_id, subject_athlete_id, changes`
