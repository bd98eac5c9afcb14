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
  /**
   * What to answer of each row found, besides its id: a select list over the row (`t`), answered as
   * the JSON of its columns. A write reads what it needs of the rows it locks in the same statement.
   */
  readonly answer?: string
}

const foundFromRow = valuesFromRow({ list: Schema.Number, id: Schema.Number })

/**
 * For each list, the ids that name no row of its table, ascending and without repeats, and the rows
 * found of each list that asks for them (`answer`, else none); all lists in one statement, in the
 * order given, so that checking what a write touches costs one round trip. The rows that exist are
 * locked until the transaction ends, by default as a foreign key check locks them (`FOR KEY SHARE`),
 * so they cannot disappear before the rows that reference them are written.
 */
export const unknownIdsAndRows = Effect.fnUntraced(function*(sql: SqlClient, lists: ReadonlyArray<IdList>) {
  const asked = lists.flatMap((list, index) => list.ids.length === 0 ? [] : [{ ...list, index }])
  const answered = lists.map((): Array<Record<string, unknown>> => [])
  if (asked.length === 0) return { unknown: lists.map(() => []), rows: answered }
  // Locking clauses are not allowed in a UNION: each table is locked in a WITH of its own.
  const locked = asked.map(({ answer, ids, index, lock = "FOR KEY SHARE", table }) =>
    sql`${sql(`found_${index}`)} AS (
      SELECT t.id${sql.literal(answer === undefined ? "" : `, ${answer}`)} FROM ${sql(table)} t
      WHERE t.id = ANY(${int8Array(ids)}::bigint[]) ${sql.literal(lock)})`
  )
  const found = asked.map(({ answer, index }) =>
    sql`SELECT ${index}::int AS list, id, ${
      sql.literal(answer === undefined ? "NULL::jsonb" : `to_jsonb(found_${index})`)
    } AS found_row FROM ${sql(`found_${index}`)}`
  )
  const rows = yield* sql`WITH ${sql.csv(locked)} ${sql.join(" UNION ALL ", false)(found)}`
  const foundIds = lists.map(() => new Set<number>())
  for (const row of rows) {
    const { id, list } = foundFromRow(row)
    foundIds[list]!.add(id)
    if (row["found_row"] !== null) answered[list]!.push(row["found_row"] as Record<string, unknown>)
  }
  return {
    unknown: lists.map((list, index) =>
      Array.from(new Set(list.ids)).filter((id) => !foundIds[index]!.has(id)).sort((a, b) => a - b)
    ),
    rows: answered
  }
})

/** For each list, the ids that name no row of its table (see `unknownIdsAndRows`). */
export const unknownIds = (sql: SqlClient, lists: ReadonlyArray<IdList>) =>
  Effect.map(unknownIdsAndRows(sql, lists), ({ unknown }) => unknown)
