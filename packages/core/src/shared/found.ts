import { Effect, Option } from "effect"
import { type EntityKind, EntityNotFound } from "./Errors.ts"

/** Turns a lookup's absence into the domain's not-found error for that entity and id. */
export const found =
  (entity: EntityKind, id: number | string) =>
  <A, E, R>(lookup: Effect.Effect<Option.Option<A>, E, R>): Effect.Effect<A, E | EntityNotFound, R> =>
    Effect.flatMap(
      lookup,
      Option.match({
        onNone: () => Effect.fail(new EntityNotFound({ entity, id })),
        onSome: Effect.succeed
      })
    )
