import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { valuesFromRow } from "./rowReader.ts"
import { int8Array } from "./int8Array.ts"

/** Ids of one table, as an input names them. */
export interface IdList {
  readonly table: string
  readonly ids: ReadonlyArray<number>
  /** How the rows found are locked: as a foreign key check locks them, unless the write changes them. */
  readonly lock?: "FOR KEY SHARE" | "FOR UPDATE"
}

const foundFromRow = valuesFromRow({ list: Schema.Number, id: Schema.Number })

/**
 * For each list, the ids that name no row of its table, ascending and without repeats; all lists
 * in one statement, in the order given, so that checking what a write touches costs one round
 * trip. The rows that exist are locked until the transaction ends, by default as a foreign key
 * check locks them (`FOR KEY SHARE`), so they cannot disappear before the rows that reference them
 * are written.
 */
export const unknownIds = Effect.fnUntraced(function*(sql: SqlClient, lists: ReadonlyArray<IdList>) {
  const asked = lists.flatMap((list, index) => list.ids.length === 0 ? [] : [{ ...list, index }])
  if (asked.length === 0) return lists.map(() => [])
  // Locking clauses are not allowed in a UNION: each table is locked in a WITH of its own.
  const locked = asked.map(({ ids, index, lock = "FOR KEY SHARE", table }) =>
    sql`${sql(`found_${index}`)} AS (
      SELECT id FROM ${sql(table)} WHERE id = ANY(${int8Array(ids)}::bigint[]) ${sql.literal(lock)})`
  )
  const found = asked.map(({ index }) => sql`SELECT ${index}::int AS list, id FROM ${sql(`found_${index}`)}`)
  const rows = yield* sql`WITH ${sql.csv(locked)} ${sql.join(" UNION ALL ", false)(found)}`
  const foundIds = lists.map(() => new Set<number>())
  for (const row of rows) {
    const { id, list } = foundFromRow(row)
    foundIds[list]!.add(id)
  }
  return lists.map((list, index) =>
    Array.from(new Set(list.ids)).filter((id) => !foundIds[index]!.has(id)).sort((a, b) => a - b)
  )
})
