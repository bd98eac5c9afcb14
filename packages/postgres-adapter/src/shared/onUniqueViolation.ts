import { Effect } from "effect"
import type { SqlError } from "effect/sql"

/**
 * Turns the unique violation of a named constraint into the domain error given for it; any other
 * SQL failure passes through unchanged.
 */
export const onUniqueViolation =
  <E2>(constraints: Readonly<Record<string, () => E2>>) =>
  <A, R>(self: Effect.Effect<A, SqlError.SqlError, R>): Effect.Effect<A, SqlError.SqlError | E2, R> =>
    Effect.catchReason(
      self,
      "SqlError",
      "UniqueViolation",
      (reason, error): Effect.Effect<never, SqlError.SqlError | E2> =>
        Object.hasOwn(constraints, reason.constraint)
          ? Effect.fail(constraints[reason.constraint]!())
          : Effect.fail(error)
    )
