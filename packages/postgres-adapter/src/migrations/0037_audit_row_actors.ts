import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { auditWriteStatementFunction } from "./auditWriteStatement.ts"

/**
 * The audit trail's statement trigger reads an actor per inserted row where the statement names
 * them (`club.audit_row_actors`, decision 0316): task creations of several requests gathered in
 * one turn are one INSERT again, each row's entry naming its own request's user.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(auditWriteStatementFunction({ rowActors: true }))
})
