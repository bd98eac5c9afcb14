import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { auditWriteStatementFunction } from "./auditWriteStatement.ts"

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
  yield* sql.unsafe(auditWriteStatementFunction({ rowActors: false }))
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
