import { WriteOutcomeUnknown } from "@club/core"
import { Cause, Context, Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { SqlError as SqlErrors } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/**
 * One transaction that, once begun, runs to its commit or rollback even when the caller goes away
 * (a client disconnecting mid-request interrupts its fiber). Cut half-way, the driver has to throw
 * the connection away to be rid of the open transaction; on the embedded database, whose single
 * connection carries every request, its replacement was refused until the old one drained, and
 * every request in between failed (bench: PUT /session/update after a load generator stopped).
 * A transaction here is a few statements long, so finishing it costs less than any cleanup.
 *
 * A failure once the transaction's own work has succeeded is its COMMIT's (or the connection's
 * release after it): the server may have kept the writes and the answer was lost, so the outcome is
 * unknown, and it dies with core's `WriteOutcomeUnknown`, which nothing sends again. A failure
 * before that leaves nothing kept: PostgreSQL never commits a transaction whose COMMIT it did not
 * receive. Nested in a transaction, this is a savepoint, and the outermost one's COMMIT decides.
 */
export const transaction =
  (sql: SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.withFiber<A, E | SqlError, R>((fiber) => {
      if (Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined) {
        return Effect.uninterruptible(sql.withTransaction(effect))
      }
      let workDone = false
      return Effect.uninterruptible(
        sql.withTransaction(Effect.tap(effect, () =>
          Effect.sync(() => {
            workDone = true
          }))).pipe(
            Effect.catchCauseIf(
              () => workDone,
              (cause) => Effect.die(new WriteOutcomeUnknown({ cause: Cause.squash(cause) }))
            )
          )
      )
    })

/**
 * One statement that writes outside a transaction (it commits by itself): a connection lost once
 * it was on its way (a `ConnectionError` of the query, not of connecting) may have left it kept, so
 * it dies with `WriteOutcomeUnknown`, as a failure at COMMIT does; a connection that could not be
 * opened wrote nothing and stays an outage.
 */
export const autocommitWrite = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchIf(
    effect,
    (error) =>
      SqlErrors.isSqlError(error) && error.reason._tag === "ConnectionError" && error.reason.operation !== "connect",
    (error) => Effect.die(new WriteOutcomeUnknown({ cause: error }))
  )
