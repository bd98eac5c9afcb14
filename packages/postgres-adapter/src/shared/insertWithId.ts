import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { transaction } from "./transaction.ts"

type Row = Record<string, unknown>

/**
 * The statement that runs an insert (`INSERT ... ON CONFLICT (id) DO NOTHING`, without RETURNING)
 * and answers one row when it inserted one, none when it did not: by default the stored row. A
 * record written across tables (a session and its memberships) puts the insert first in a `WITH`
 * and answers the whole record, in one round trip.
 */
export type AroundInsert = (insert: Fragment) => Effect.Effect<ReadonlyArray<Row>, SqlError>

const storedRow = (sql: SqlClient): AroundInsert => (insert) => sql<Row>`${insert} RETURNING *`

const maxGeneratedIdAttempts = 20

/**
 * Inserts a row with an id drawn from the table's identity sequence and returns the stored row.
 * Run it in one transaction with whatever reads the row back (its decode included), so that a
 * failure there leaves no committed row behind, unless the table itself refuses a row that could
 * not be read back (a session's, migration 0038): then each attempt may commit by itself.
 * A supplied id inserted concurrently can take the value the sequence hands out next:
 * `ON CONFLICT DO NOTHING` skips that row without aborting the surrounding transaction,
 * and the next attempt draws a fresh id.
 */
export const insertWithGeneratedId = Effect.fnUntraced(function*(
  sql: SqlClient,
  table: string,
  values: Row,
  around: AroundInsert = storedRow(sql)
) {
  for (let attempt = 1; attempt <= maxGeneratedIdAttempts; attempt++) {
    const [row] = yield* around(sql`INSERT INTO ${sql(table)} ${sql.insert(values)} ON CONFLICT (id) DO NOTHING`)
    if (row !== undefined) return row
  }
  return yield* Effect.die(new Error(`${table}: no free generated id after ${maxGeneratedIdAttempts} attempts`))
})

/**
 * Inserts a row with a supplied id, or returns none when a row already has it: an existing record
 * is never overwritten. The identity sequence is then moved past the id, so that generated ids
 * never collide with it; supplied ids are at most core's `Limits.maxSuppliedId`, far below the
 * sequence's MAXVALUE, so generated ids keep their room. The advisory lock serialises supplied-id inserts per table, so the
 * sequence only moves forward between them.
 */
export const insertWithSuppliedId = Effect.fnUntraced(
  function*(sql: SqlClient, table: string, id: number, values: Row, around: AroundInsert = storedRow(sql)) {
    yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`club.supplied-id.${table}`}))`
    const [row] = yield* around(
      sql`INSERT INTO ${sql(table)} ${sql.insert({ ...values, id })} ON CONFLICT (id) DO NOTHING`
    )
    if (row === undefined) return Option.none<Row>()
    yield* sql`SELECT setval(seq, GREATEST(${id}, COALESCE(pg_sequence_last_value(seq), 0)))
      FROM (SELECT pg_get_serial_sequence(${table}, 'id')::regclass AS seq) AS identity`
    return Option.some(row)
  },
  (effect, sql) => transaction(sql)(effect)
)
