import { Option } from "effect"
import { EntityNotFound, IdAlreadyInUse } from "../shared/Errors.ts"
import { givenValues, type RecordClass, type RecordTable, suppliedIdOf, valueFieldsOf } from "./RecordTable.ts"
import type { PlainRecordRepository } from "./RecordRepository.ts"
import { traced } from "../shared/traced.ts"
import type { InMemoryTables } from "../shared/InMemoryStore.ts"
import { clearUserLink } from "../users/inMemoryUserLinks.ts"

/**
 * The record repository of a kind of record in the store, by the rules of `RecordTable`; the same
 * spans as the database's repositories. A kind with a rule of its own (a coach's delete) replaces
 * that method.
 */
export const inMemoryRecords = <
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass
>(
  store: InMemoryTables,
  description: RecordTable<R, C, U>
): PlainRecordRepository<InstanceType<R>, InstanceType<C>, InstanceType<U>> => {
  type A = InstanceType<R>
  const { entity, record: Record, userLink } = description
  const table = store.records.of<A>(entity)
  const fields = valueFieldsOf(description)
  const span = `${entity}Repository`
  return {
    create: traced(`${span}.create`)(function*(input: InstanceType<C>) {
      const id = table.newId(suppliedIdOf(input) as A["id"] | null)
      if (id instanceof IdAlreadyInUse) return yield* id
      return table.insert(new Record({ id, ...givenValues(input, fields) }) as A)
    }),
    findById: traced(`${span}.findById`)(function*(id: A["id"]) {
      return Option.fromNullishOr(table.get(id))
    }),
    list: traced(`${span}.list`)(function*() {
      return table.all()
    }),
    update: traced(`${span}.update`)(function*(id: A["id"], input: InstanceType<U>) {
      const current = table.get(id)
      if (current === undefined) return yield* new EntityNotFound({ entity, id })
      const changes = givenValues(input, fields)
      return Object.keys(changes).length === 0 ? current : table.replace(new Record({ ...current, ...changes }) as A)
    }),
    delete: traced(`${span}.delete`)(function*(id: A["id"]) {
      if (!table.delete(id)) return yield* new EntityNotFound({ entity, id })
      if (userLink !== undefined) clearUserLink(store, { field: userLink, id })
    })
  }
}
