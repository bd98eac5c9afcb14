import { AuditActor, WriteOutcomeUnknown } from "@club/core"
import { Cause, Context, Effect, Schedule } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { SqlError as SqlErrors } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { isRolledBackForItsTiming } from "./refusedByServer.ts"

/** How many more times work PostgreSQL rolled back for its timing is done (`againWhenRolledBackForItsTiming`). */
export const timingRetries = 3

/**
 * Work PostgreSQL rolled back for its timing alone (`isRolledBackForItsTiming`: a deadlock it
 * broke, a serialization failure) is done again, at most `timingRetries` more times, each after a
 * short random pause that grows, so that two writers that met do not meet again at once. Nothing
 * of it was kept, so this never sends again a write that may have been kept: one whose outcome is
 * unknown has died (`WriteOutcomeUnknown`) before it gets here. In a caller's transaction it is not
 * done again: PostgreSQL rolled back the caller's whole transaction, and the outermost
 * `transaction` does that again.
 */
const againWhenRolledBackForItsTiming =
  (sql: SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) =>
      Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined
        ? effect
        : Effect.retry(effect, {
          while: isRolledBackForItsTiming,
          times: timingRetries,
          schedule: Schedule.jittered(Schedule.exponential("10 millis"))
        })
    )

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
 *
 * A transaction done for a user (core's `AuditActor`) first names them in the transaction-local
 * setting `club.audit_actor`, which the audit trigger of every audited table reads (migration 0032,
 * decision 0240): one statement more per write transaction of a request; none for the server's own.
 * A write whose own statement names them (`namingTheActor`) asks for none
 * (`actorNamedByTheWrite`), saving that round trip.
 */
export const transaction =
  (sql: SqlClient, options: { readonly actorNamedByTheWrite?: boolean } = {}) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.withFiber<A, E | SqlError, R>((fiber) => {
      if (Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined) {
        return Effect.uninterruptible(sql.withTransaction(effect))
      }
      const actor = fiber.getRef(AuditActor)
      const audited = actor.userId === null || options.actorNamedByTheWrite === true ? effect : Effect.andThen(
        sql`SELECT set_config('club.audit_actor', ${JSON.stringify(actor)}, true)`,
        effect
      )
      const attempt = Effect.suspend(() => {
        let workDone = false
        return Effect.uninterruptible(
          sql.withTransaction(Effect.tap(audited, () =>
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
      return againWhenRolledBackForItsTiming(sql)(attempt)
    })

/**
 * A `FROM` item that names the request's user (core's `AuditActor`) to the audit triggers from
 * inside the statement that writes (`... FROM (...) q ${actor}`): `set_config` runs while the
 * statement runs, and the audit triggers run at its end (migration 0036), so they read it; the
 * setting is transaction-local, as `transaction`'s own. The server's own writes set it empty (no
 * actor): a transaction may hold the writes of several requests (the session updates of a turn,
 * decision 0323), and one must not be named by the one before it.
 * The statement's result must have a row whenever it wrote one (the join is evaluated with them).
 */
export const namingTheActor = (sql: SqlClient): Effect.Effect<Fragment> =>
  Effect.withFiber((fiber) => {
    const actor = fiber.getRef(AuditActor)
    return Effect.succeed(
      sql`CROSS JOIN (SELECT set_config('club.audit_actor', ${
        actor.userId === null ? "" : JSON.stringify(actor)
      }, true)) AS audit_actor`
    )
  })

/**
 * One statement that writes outside a transaction (it commits by itself): a connection lost once
 * it was on its way (a `ConnectionError` of the query, not of connecting) may have left it kept, so
 * it dies with `WriteOutcomeUnknown`, as a failure at COMMIT does; a connection that could not be
 * opened wrote nothing and stays an outage. Rolled back for its timing, it is sent again
 * (`againWhenRolledBackForItsTiming`), unless it runs in a caller's transaction.
 */
export const autocommitWrite = (sql: SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  againWhenRolledBackForItsTiming(sql)(Effect.catchIf(
    effect,
    (error) =>
      SqlErrors.isSqlError(error) && error.reason._tag === "ConnectionError" && error.reason.operation !== "connect",
    (error) => Effect.die(new WriteOutcomeUnknown({ cause: error }))
  ))

/** Whether the caller runs in a transaction already (an idempotency key's, which commits with the write). */
export const inCallersTransaction = (sql: SqlClient): Effect.Effect<boolean> =>
  Effect.withFiber((fiber) =>
    Effect.succeed(Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined)
  )

/**
 * A write of one statement that would commit by itself, made a transaction when it is done for a
 * user (core's `AuditActor`), so that its audit entry names them (decision 0240): the setting that
 * names them is transaction-local. The server's own writes stay one statement.
 */
export const auditedWrite =
  (sql: SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.withFiber((fiber) => fiber.getRef(AuditActor).userId === null ? effect : transaction(sql)(effect))
