import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { cheaperAuditWriteStatement } from "./0039_cheaper_audit_entries.ts"

/**
 * The audit trail's statement trigger reads each inserted row's actor for several tables of one
 * statement (decision 0323): `club.audit_row_actors` may be `{"tables": {"<table>": [actor, ...]}}`,
 * one list per table the statement inserts into, so that the session creates of one turn, one
 * statement writing sessions and their athletes, name each row's own request's user in both
 * tables. 0037's form, `{"table": ..., "actors": [...]}`, is still read (an instance not yet
 * upgraded sends it). Everything else is 0039's function, text for text: only the lines that pick
 * the list are replaced, and the migration fails if they are not there to be replaced.
 */
const oneTable = `row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;
        IF row_actors ->> 'table' IS DISTINCT FROM TG_TABLE_NAME
          OR jsonb_typeof(row_actors -> 'actors') IS DISTINCT FROM 'array' THEN
          row_actors := NULL;
        END IF;
        row_actors := row_actors -> 'actors';`

const byTable = `row_actors := NULLIF(current_setting('club.audit_row_actors', true), '')::jsonb;
        row_actors := CASE
          WHEN jsonb_typeof(row_actors -> 'tables') = 'object' THEN row_actors -> 'tables' -> TG_TABLE_NAME
          WHEN row_actors ->> 'table' = TG_TABLE_NAME THEN row_actors -> 'actors'
        END;
        IF jsonb_typeof(row_actors) IS DISTINCT FROM 'array' THEN
          row_actors := NULL;
        END IF;`

export const auditRowActorsByTable = (() => {
  if (!cheaperAuditWriteStatement.includes(oneTable)) {
    throw new Error("migration 0041: 0039's lines choosing the row actors are not where they were")
  }
  return cheaperAuditWriteStatement.replace(oneTable, byTable)
})()

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(auditRowActorsByTable)
})
