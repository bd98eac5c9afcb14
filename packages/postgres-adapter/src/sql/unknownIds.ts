import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { IdRow } from "./IdRow.ts"
import { int8Array } from "./int8Array.ts"

const IdRows = Schema.Array(IdRow)

/**
 * The ids among `ids` that name no row of `table`, ascending and without repeats. The rows that
 * exist are locked as a foreign key check locks them (`FOR KEY SHARE`) until the transaction ends,
 * so they cannot disappear before the rows that reference them are written.
 */
export const unknownIds = (sql: SqlClient, table: string, ids: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return []
    const rows = yield* sql`SELECT id FROM ${sql(table)} WHERE id = ANY(${int8Array(ids)}::bigint[]) FOR KEY SHARE`
    const found = new Set((yield* Schema.decodeUnknownEffect(IdRows)(rows)).map((row) => row.id))
    return Array.from(new Set(ids)).filter((id) => !found.has(id)).sort((a, b) => a - b)
  })
