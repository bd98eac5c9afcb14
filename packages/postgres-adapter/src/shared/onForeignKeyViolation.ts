import { Effect } from "effect"
import type { SqlError } from "effect/sql"

/** What the driver keeps of PostgreSQL's error: its fields, the violated constraint among them. */
const constraintOf = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null && "constraint" in cause ? cause.constraint : undefined

/**
 * Turns the foreign key violation of a named constraint into the domain error given for it, so a
 * single-row write needs no separate check of the row it references: the foreign key checks it and
 * locks the referenced row in the same statement. Any other SQL failure passes through unchanged.
 */
export const onForeignKeyViolation =
  <E2>(constraints: Readonly<Record<string, () => E2>>) =>
  <A, E, R>(self: Effect.Effect<A, E | SqlError.SqlError, R>): Effect.Effect<A, E | SqlError.SqlError | E2, R> =>
    Effect.catchReason(
      self,
      "SqlError",
      "ConstraintError",
      (reason, error): Effect.Effect<never, SqlError.SqlError | E2> => {
        const constraint = constraintOf(reason.cause)
        return typeof constraint === "string" && Object.hasOwn(constraints, constraint)
          ? Effect.fail(constraints[constraint]!())
          : Effect.fail(error)
      }
    )
