import { traced } from "@club/core"
import {
  EntityNotFound,
  givenValues,
  IdAlreadyInUse,
  type PlainRecordRepository,
  type RecordClass,
  type RecordTable,
  suppliedIdOf,
  valueFieldsOf
} from "@club/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { readRows, recordFromRow, type Row } from "../shared/rowReader.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { insertWithGeneratedId, insertWithSuppliedId } from "../shared/insertWithId.ts"
import { int8Array } from "../shared/int8Array.ts"
import { readsById, readsShared } from "../shared/readsGathered.ts"
import { byColumn, selectListOf } from "../shared/snakeCase.ts"
import { transaction } from "../shared/transaction.ts"
import { CredentialsCache } from "../users/CredentialsCache.ts"

/**
 * The record repository of a kind of record in its table (`RecordTable.table`, a column per field
 * in snake case), by the rules of `RecordTable`. A kind with a rule of its own (a coach's delete)
 * replaces that method.
 */
export const recordRepository = <
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass
>(description: RecordTable<R, C, U>) =>
  Effect.gen(function*() {
    type A = InstanceType<R>
    const sql = yield* SqlClient.SqlClient
    const credentials = yield* CredentialsCache
    const { entity, table, userLink } = description
    const fromRow = recordFromRow(description.record) as (row: Row) => A
    const columns = sql.literal(selectListOf(Object.keys(description.record.fields)))
    const fields = valueFieldsOf(description)
    const span = `${entity}Repository`
    const findOne = readsById(
      sql,
      (ids) =>
        Effect.map(
          sql`SELECT ${columns} FROM ${sql(table)} WHERE id = ANY(${int8Array(ids)}::bigint[])`,
          readRows(fromRow)
        )
    )

    const all = readsShared(
      sql,
      Effect.map(sql`SELECT ${columns} FROM ${sql(table)} ORDER BY id`, readRows(fromRow))
    )

    const repository: PlainRecordRepository<A, InstanceType<C>, InstanceType<U>> = {
      /** The insert and the decode of the stored row are one transaction: a row that cannot be answered is not kept. */
      create: traced(`${span}.create`)(function*(input: InstanceType<C>) {
        return yield* transaction(sql)(Effect.gen(function*() {
          const values = byColumn(givenValues(input, fields))
          const id = suppliedIdOf(input)
          if (id === null) return fromRow(yield* insertWithGeneratedId(sql, table, values))
          const row = yield* insertWithSuppliedId(sql, table, id, values)
          if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity, id })
          return fromRow(row.value)
        }))
      }, dieOnInfrastructureError),

      findById: traced(`${span}.findById`)(function*(id: A["id"]) {
        return yield* findOne(id)
      }, dieOnInfrastructureError),

      list: traced(`${span}.list`)(function*() {
        return yield* all
      }, dieOnInfrastructureError),

      update: traced(`${span}.update`)(function*(id: A["id"], input: InstanceType<U>) {
        const changes = byColumn(givenValues(input, fields))
        const rows = Object.keys(changes).length === 0
          ? yield* sql`SELECT ${columns} FROM ${sql(table)} WHERE id = ${id}`
          : yield* sql`UPDATE ${sql(table)} SET ${sql.update(changes)} WHERE id = ${id} RETURNING ${columns}`
        if (rows[0] === undefined) return yield* new EntityNotFound({ entity, id })
        return fromRow(rows[0])
      }, dieOnInfrastructureError),

      delete: traced(`${span}.delete`)(function*(id: A["id"]) {
        const statement = sql`DELETE FROM ${sql(table)} WHERE id = ${id} RETURNING id`
        // A user's link to the record goes by ON DELETE SET NULL, which the credentials cache must see.
        const deleted = yield* (userLink === undefined ? statement : credentials.invalidating(statement))
        if (deleted.length === 0) return yield* new EntityNotFound({ entity, id })
      }, dieOnInfrastructureError)
    }
    return repository
  })
