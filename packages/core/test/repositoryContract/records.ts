import {
  eachRecordKind,
  type ErasedRecordKind,
  type NewUser,
  type Role,
  UserRepository,
  valueFieldsOf
} from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newUser } from "./fixtures.ts"

const roleOfLink = { adminId: "ADMIN", coachId: "COACH", athleteId: "ATHLETE" } as const satisfies Record<
  string,
  Role
>

/** The example's values but `id`, each string changed: what an update replaces them with. */
const changed = (values: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(values).map(([field, value]) => [field, typeof value === "string" ? `${value} 2` : value])
  )

/**
 * The contract of a plain kind of record (`RecordTable`'s rules), on its example's values: the
 * same for every kind of `recordKinds`, so that a new kind needs no test file of its own here.
 */
const recordContract = ({ repository, table }: ErasedRecordKind): ContractSuite => {
  const { entity, example, userLink } = table
  const fields = valueFieldsOf(table)
  const values = Object.fromEntries(fields.map((field) => [field, example[field]]))
  const hasId = "id" in table.create.fields
  const create = () => new table.create({ ...values, ...(hasId ? { id: null } : {}) }) as never
  return {
    title: `${entity}Repository`,
    tests: (it) => {
      it.effect(`creates, finds, lists, updates and deletes a record (${entity}); a missing one is not found`, () =>
        Effect.gen(function*() {
          const records = yield* repository
          const created = yield* records.create(create())
          assert.instanceOf(created, table.record)
          expect(created).toMatchObject(values)
          expect(yield* records.findById(created.id)).toEqual(Option.some(created))
          expect(yield* records.list()).toContainEqual(created)
          // An update that gives no field answers the record as stored.
          expect(yield* records.update(created.id, new table.update({}) as never)).toEqual(created)

          const replaced = yield* records.update(created.id, new table.update(changed(values)) as never)
          expect(replaced).toEqual(new table.record({ ...changed(values), id: created.id }))
          expect(yield* records.findById(created.id)).toEqual(Option.some(replaced))

          yield* records.delete(created.id)
          const missing = { _tag: "EntityNotFound", entity, id: created.id }
          expect(yield* records.findById(created.id)).toEqual(Option.none())
          expect(yield* Effect.flip(records.update(created.id, new table.update({}) as never))).toMatchObject(missing)
          expect(yield* Effect.flip(records.delete(created.id))).toMatchObject(missing)
        }))

      if (userLink !== undefined) {
        it.effect("delete clears the link of the record's user, who keeps its role", () =>
          Effect.gen(function*() {
            const records = yield* repository
            const users = yield* UserRepository
            const record = yield* records.create(create())
            const role = roleOfLink[userLink]
            const link = { [userLink]: record.id } as Exclude<NewUser["link"], "create">
            const user = yield* users.create(newUser(`linked-${entity.toLowerCase()}`, role, link))
            expect(user[userLink]).toBe(record.id)

            yield* records.delete(record.id)
            expect(Option.getOrThrow(yield* users.findById(user.id))).toMatchObject({ [userLink]: null, role })
          }))
      }
    }
  }
}

/** The contract of every kind of `recordKinds`. */
export const recordContracts: ReadonlyArray<ContractSuite> = eachRecordKind(recordContract)
