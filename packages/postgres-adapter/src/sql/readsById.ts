import { Cause, Context, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** The most ids one statement asks for; more reads waiting in one turn are sent as further statements. */
export const maxIdsPerStatement = 256

interface Waiting<A, E> {
  readonly id: number
  readonly resume: (answer: Effect.Effect<Option.Option<A>, E>) => void
}

/**
 * Reads of one kind of record by id, gathered from every request of one turn of the event loop and
 * sent as one statement (`readMany` of their ids): under load, the requests read from their
 * sockets in one turn all ask before any of them is answered, and one statement then answers them
 * all, instead of a statement, a pooled connection and a wake-up of the process each
 * (docs/DECISIONS.md, "Reads by id of concurrent requests are one statement").
 *
 * A read inside a transaction is sent at once on the transaction's connection, alone: it must see
 * the transaction's own writes, and no other request may see them. A failure of the statement is
 * every waiting read's failure. The statement runs with the first waiting read's context (its
 * trace and its log annotations), as effect's own request batching does.
 */
export const readsById = <A, E>(
  sql: SqlClient,
  readMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<A>, E>,
  idOf: (record: A) => number
): (id: number) => Effect.Effect<Option.Option<A>, E> => {
  let waiting: Array<Waiting<A, E>> = []
  let firstContext = Context.empty()

  const answer = (batch: ReadonlyArray<Waiting<A, E>>, records: ReadonlyArray<A>) => {
    const byId = new Map<number, A>()
    for (const record of records) byId.set(idOf(record), record)
    for (const read of batch) read.resume(Effect.succeed(Option.fromNullishOr(byId.get(read.id))))
  }

  const send = (batch: ReadonlyArray<Waiting<A, E>>, context: Context.Context<never>) =>
    Effect.runForkWith(context)(Effect.matchCause(readMany(batch.map((read) => read.id)), {
      onFailure: (cause: Cause.Cause<E>) => {
        for (const read of batch) read.resume(Effect.failCause(cause))
      },
      onSuccess: (records) => answer(batch, records)
    }))

  // At the end of the turn (setImmediate runs after every socket read in it): each read of the turn has asked.
  const flush = () => {
    const batch = waiting
    const context = firstContext
    waiting = []
    firstContext = Context.empty()
    for (let start = 0; start < batch.length; start += maxIdsPerStatement) {
      send(batch.slice(start, start + maxIdsPerStatement), context)
    }
  }

  const alone = (id: number) => Effect.map(readMany([id]), (records) => Option.fromNullishOr(records[0]))

  return (id) =>
    Effect.withFiber((fiber) =>
      Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined
        ? alone(id)
        : Effect.callback<Option.Option<A>, E>((resume) => {
          if (waiting.length === 0) {
            firstContext = fiber.context
            setImmediate(flush)
          }
          waiting.push({ id, resume })
        })
    )
}
