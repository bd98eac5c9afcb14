import { Cause, Effect, Schema } from "effect"
import { SqlError } from "effect/sql"
import { isOutage, toDefect } from "./outage.ts"

type InfrastructureError = SqlError.SqlError | Schema.SchemaError

const isInfrastructureError = (error: unknown): error is InfrastructureError =>
  SqlError.isSqlError(error) || Schema.isSchemaError(error)

const classified = <E>(reason: Cause.Reason<E>): Cause.Reason<E> =>
  Cause.isFailReason(reason) && isInfrastructureError(reason.error)
    ? Cause.makeDieReason(toDefect(reason.error))
    : Cause.isDieReason(reason) && isOutage(reason.defect)
    ? Cause.makeDieReason(toDefect(reason.defect))
    : reason

const needsClassifying = <E>(reason: Cause.Reason<E>): boolean =>
  (Cause.isFailReason(reason) && isInfrastructureError(reason.error)) ||
  (Cause.isDieReason(reason) && isOutage(reason.defect))

/**
 * A port's failure with its infrastructure errors made defects: a failing database or a row that
 * does not decode is an outage or a bug, not an outcome a caller can act on, and an outage is
 * core's `StoreUnavailable` (see `outage.ts`). That includes the SQL errors the SQL client itself
 * dies with (a rollback or commit on a connection that is gone). Every other reason is kept as is.
 */
export const classifyCause = <E>(cause: Cause.Cause<E>): Cause.Cause<Exclude<E, InfrastructureError>> =>
  (cause.reasons.some(needsClassifying) ? Cause.fromReasons(cause.reasons.map(classified)) : cause) as Cause.Cause<
    Exclude<E, InfrastructureError>
  >

/**
 * A failing database or a row that does not decode becomes a defect (core's `StoreUnavailable`
 * for an outage); only the port's domain errors stay typed.
 */
export const dieOnInfrastructureError = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, InfrastructureError>, R> =>
  // Only a cause that needs it is caught: an interruption, or a domain error alone, passes untouched.
  Effect.catchCauseIf(
    self,
    (cause) => cause.reasons.some(needsClassifying),
    (cause) => Effect.failCause(classifyCause(cause))
  ) as Effect.Effect<A, Exclude<E, InfrastructureError>, R>
