import { Option } from "effect"
import { EntityNotFound, IdAlreadyInUse } from "../domain/Errors.ts"
import { traced } from "../tracing/traced.ts"
import type { Table } from "./Table.ts"

/**
 * Create, read, list and rename of `{id, name}` records (coaches, admins), which differ only in
 * how a delete is allowed; the same spans as the database's repositories.
 */
export const namedRecords = <Id extends number, A extends { readonly id: Id; readonly name: string | null }>(
  table: Table<A>,
  make: (fields: { readonly id: Id; readonly name: string | null }) => A
) => {
  const span = `${table.entity}Repository`
  return {
    create: traced(`${span}.create`)(function*(input: { readonly id: Id | null; readonly name: string | null }) {
      const id = table.newId(input.id)
      if (id instanceof IdAlreadyInUse) return yield* id
      return table.insert(make({ id, name: input.name }))
    }),
    findById: traced(`${span}.findById`)(function*(id: Id) {
      return Option.fromNullishOr(table.get(id))
    }),
    list: traced(`${span}.list`)(function*() {
      return table.all()
    }),
    /** The name is replaced only when the key is present. */
    update: traced(`${span}.update`)(function*(id: Id, input: { readonly name?: string | null }) {
      const current = table.get(id)
      if (current === undefined) return yield* new EntityNotFound({ entity: table.entity, id })
      return input.name === undefined ? current : table.replace(make({ id, name: input.name }))
    })
  }
}
