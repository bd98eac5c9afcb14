import { traced } from "../shared/traced.ts"
import { Effect, type Option } from "effect"
import type { CurrentActor } from "../shared/Actor.ts"
import type { EntityKind, EntityNotFound, NotPermitted } from "../shared/Errors.ts"
import { authorize, type OwnedRecord } from "../shared/Permissions.ts"
import type { RecordOperations } from "./RecordTable.ts"
import { found } from "../shared/found.ts"

/** The repository shape every kind of record shares (athletes, coaches, admins, sessions, activities). */
export interface RecordRepository<Id extends number, A, C, U, EC, EU, ED, F = never> {
  create(input: C): Effect.Effect<A, EC>
  findById(id: Id): Effect.Effect<Option.Option<A>>
  /** Where a repository takes a filter (sessions), the records that match it. */
  list(filter?: F): Effect.Effect<ReadonlyArray<A>>
  update(id: Id, input: U): Effect.Effect<A, EU>
  delete(id: Id): Effect.Effect<void, ED>
}

/**
 * Create, read, list, update and delete of one kind of record, each checked against the role
 * table first. `owner` names the record an update touches, for the table's owner rules.
 */
export const makeRecordUseCases = <Id extends number, A, C, U, EC, EU, ED, F = never>(options: {
  readonly entity: EntityKind
  readonly repository: RecordRepository<Id, A, C, U, EC, EU, ED, F>
  readonly operations: RecordOperations
  readonly owner?: (id: Id) => OwnedRecord
}) => {
  const { entity, operations: ops, owner, repository: repo } = options
  const name = `${entity}Service`
  return {
    /** The operation of the role table each method checks, for tests to find. */
    operations: ops,
    create: traced(`${name}.create`)(function*(input: C) {
      yield* authorize(ops.create)
      return yield* repo.create(input)
    }),
    list: traced(`${name}.list`)(function*(filter?: F) {
      yield* authorize(ops.list)
      return yield* repo.list(filter)
    }),
    get: traced(`${name}.get`)(function*(id: Id): Effect.fn.Return<A, EntityNotFound | NotPermitted, CurrentActor> {
      yield* authorize(ops.read)
      return yield* repo.findById(id).pipe(found(entity, id))
    }),
    update: traced(`${name}.update`)(function*(id: Id, input: U) {
      yield* authorize(ops.update, owner?.(id) ?? {})
      return yield* repo.update(id, input)
    }),
    delete: traced(`${name}.delete`)(function*(id: Id) {
      yield* authorize(ops.delete)
      return yield* repo.delete(id)
    })
  }
}
