import { traced } from "@club/core"
import { EntityNotFound, IdAlreadyInUse } from "@club/core"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { readRows, type RowReader } from "../rows/rowReader.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { insertWithGeneratedId, insertWithSuppliedId } from "../sql/insertWithId.ts"
import { transaction } from "../sql/transaction.ts"

/**
 * Create, read, list and rename of a table of `{id, name}` records (coaches, admins): they differ
 * only in how a delete is allowed.
 */
export const namedRecords = <A, Id extends number>(
  sql: SqlClient.SqlClient,
  options: {
    readonly table: "coaches" | "admins"
    readonly entity: "Coach" | "Admin"
    readonly fromRow: RowReader<A>
  }
) => {
  const { entity, table } = options
  const { fromRow } = options
  const span = `${entity}Repository`

  return {
    /** The insert and the decode of the stored row are one transaction: a row that cannot be answered is not kept. */
    create: traced(`${span}.create`)(function*(input: { readonly id: Id | null; readonly name: string | null }) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const values = { name: input.name }
        if (input.id === null) return fromRow(yield* insertWithGeneratedId(sql, table, values))
        const row = yield* insertWithSuppliedId(sql, table, input.id, values)
        if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity, id: input.id })
        return fromRow(row.value)
      }))
    }, dieOnInfrastructureError),

    findById: traced(`${span}.findById`)(function*(id: Id) {
      const [row] = yield* sql`SELECT id, name FROM ${sql(table)} WHERE id = ${id}`
      return row === undefined ? Option.none() : Option.some(fromRow(row))
    }, dieOnInfrastructureError),

    list: traced(`${span}.list`)(function*() {
      return readRows(fromRow)(yield* sql`SELECT id, name FROM ${sql(table)} ORDER BY id`)
    }, dieOnInfrastructureError),

    /** The name is replaced only when the key is present. */
    update: traced(`${span}.update`)(function*(id: Id, input: { readonly name?: string | null }) {
      const rows = input.name === undefined
        ? yield* sql`SELECT id, name FROM ${sql(table)} WHERE id = ${id}`
        : yield* sql`UPDATE ${sql(table)} SET name = ${input.name} WHERE id = ${id} RETURNING id, name`
      if (rows[0] === undefined) return yield* new EntityNotFound({ entity, id })
      return fromRow(rows[0])
    }, dieOnInfrastructureError)
  }
}
