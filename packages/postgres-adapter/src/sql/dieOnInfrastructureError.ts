import { Effect, Schema } from "effect"
import { SqlError } from "effect/sql"
import { toDefect } from "./outage.ts"

type InfrastructureError = SqlError.SqlError | Schema.SchemaError

/**
 * A failing database or a row that does not decode is an outage or a bug, not an outcome a
 * caller can act on: it becomes a defect (core's `StoreUnavailable` for an outage, see
 * `outage.ts`), and only the port's domain errors stay typed.
 */
export const dieOnInfrastructureError = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(
    Effect.catchIf(
      (error): error is Extract<E, InfrastructureError> => SqlError.isSqlError(error) || Schema.isSchemaError(error),
      (error) => Effect.die(toDefect(error)),
      Effect.fail
    )
  )
