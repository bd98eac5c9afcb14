import type { Effect, Option } from "effect"
import type { EntityNotFound, IdAlreadyInUse } from "../shared/Errors.ts"

/**
 * The port of a plain kind of record (a `RecordTable`), with the rules `RecordTable` states: ids,
 * supplied or generated, follow those of `AthleteRepository`; every write is all or nothing;
 * lists are in id order.
 */
export interface PlainRecordRepository<A extends { readonly id: number }, C, U> {
  create(input: C): Effect.Effect<A, IdAlreadyInUse>
  findById(id: A["id"]): Effect.Effect<Option.Option<A>>
  list(): Effect.Effect<ReadonlyArray<A>>
  /** Replaces the fields the input gives; an input that gives none answers the record as stored. */
  update(id: A["id"], input: U): Effect.Effect<A, EntityNotFound>
  delete(id: A["id"]): Effect.Effect<void, EntityNotFound>
}
