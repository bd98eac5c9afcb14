import { Array as Arr, Cause, Context, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** The most ids one statement asks for; more reads waiting in one turn are sent as further statements. */
export const maxIdsPerStatement = 256

interface Waiting<Answer, E> {
  readonly id: number
  readonly resume: (answer: Effect.Effect<Answer, E>) => void
}

interface Gathering<G, Answer, E> {
  readonly group: G
  readonly reads: Array<Waiting<Answer, E>>
}

/**
 * Reads of rows by the id they belong to (a record's own id, or the athlete or session a list is
 * of), gathered from every request of one turn of the event loop and sent as one statement per
 * group (`readMany` of their ids; reads of one group share everything but the id, as a range of
 * dates): under load, the requests read from their sockets in one turn all ask before any of them
 * is answered, and one statement then answers them all, instead of a statement, a pooled
 * connection and a wake-up of the process each (docs/DECISIONS.md, "Reads by id of concurrent
 * requests are one statement"). Each read is answered with `answerOf` of the rows of its id, in
 * the statement's order.
 *
 * A read inside a transaction is sent at once on the transaction's connection, alone: it must see
 * the transaction's own writes, and no other request may see them. So is a read of an id that is
 * not a safe integer, whatever failure it meets staying its own. A failure of the statement is
 * every waiting read's failure. The statement runs with the first waiting read's context (its
 * trace and its log annotations), as effect's own request batching does.
 */
export const readsGathered = <G, A, E, Answer>(options: {
  readonly sql: SqlClient
  readonly readMany: (ids: ReadonlyArray<number>, group: G) => Effect.Effect<ReadonlyArray<A>, E>
  /** The id a row belongs to. */
  readonly idOf: (row: A) => number
  readonly answerOf: (rows: ReadonlyArray<A>) => Answer
  /** Reads whose groups have the same key are sent together. */
  readonly keyOf: (group: G) => string
}): (id: number, group: G) => Effect.Effect<Answer, E> => {
  const { answerOf, idOf, keyOf, readMany, sql } = options
  let waiting = new Map<string, Gathering<G, Answer, E>>()
  let firstContext = Context.empty()

  const answer = (reads: ReadonlyArray<Waiting<Answer, E>>, rows: ReadonlyArray<A>) => {
    const byId: Partial<Record<string, ReadonlyArray<A>>> = Arr.groupBy(rows, (row) => String(idOf(row)))
    for (const read of reads) read.resume(Effect.succeed(answerOf(byId[String(read.id)] ?? [])))
  }

  const send = (group: G, reads: ReadonlyArray<Waiting<Answer, E>>, context: Context.Context<never>) =>
    // Suspended: a statement that throws while it is built is a defect of its reads, not of the process.
    Effect.runForkWith(context)(Effect.matchCause(Effect.suspend(() => readMany(reads.map((read) => read.id), group)), {
      onFailure: (cause: Cause.Cause<E>) => {
        for (const read of reads) read.resume(Effect.failCause(cause))
      },
      onSuccess: (rows) => answer(reads, rows)
    }))

  // At the end of the turn (setImmediate runs after every socket read in it): each read of the turn has asked.
  const flush = () => {
    const gatherings = waiting
    const context = firstContext
    waiting = new Map()
    firstContext = Context.empty()
    for (const { group, reads } of gatherings.values()) {
      for (let start = 0; start < reads.length; start += maxIdsPerStatement) {
        send(group, reads.slice(start, start + maxIdsPerStatement), context)
      }
    }
  }

  const alone = (id: number, group: G) => Effect.map(Effect.suspend(() => readMany([id], group)), answerOf)

  return (id, group) =>
    Effect.withFiber((fiber) =>
      !Number.isSafeInteger(id) || Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined
        ? alone(id, group)
        : Effect.callback<Answer, E>((resume) => {
          if (waiting.size === 0) {
            firstContext = fiber.context
            setImmediate(flush)
          }
          const key = keyOf(group)
          const gathering = waiting.get(key)
          if (gathering === undefined) waiting.set(key, { group, reads: [{ id, resume }] })
          else gathering.reads.push({ id, resume })
        })
    )
}

/** Records read by their own id (`readMany` of the ids asked in one turn): each read answers its record or none. */
export const readsById = <A extends { readonly id: number }, E>(
  sql: SqlClient,
  readMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<A>, E>
): (id: number) => Effect.Effect<Option.Option<A>, E> => {
  const read = readsGathered<undefined, A, E, Option.Option<A>>({
    sql,
    readMany,
    idOf: (record) => record.id,
    answerOf: (records) => Option.fromNullishOr(records[0]),
    keyOf: () => ""
  })
  return (id) => read(id, undefined)
}

/**
 * A read that asks every caller the same (a whole table's rows), gathered from the requests of one
 * turn as the reads by id are: one statement answers every read waiting in the turn, each with the
 * same rows, decoded once (records are immutable, so one array serves them all). Each read's
 * statement still starts after the read was asked, so it sees every write committed before.
 */
export const readsShared = <A, E>(
  sql: SqlClient,
  readAll: Effect.Effect<ReadonlyArray<A>, E>
): Effect.Effect<ReadonlyArray<A>, E> => {
  const read = readsGathered<undefined, A, E, ReadonlyArray<A>>({
    sql,
    readMany: () => readAll,
    idOf: () => sharedId,
    answerOf: (rows) => rows,
    keyOf: () => ""
  })
  return read(sharedId, undefined)
}

/** The one id every shared read asks for, so that all of a turn's rows are each read's. */
const sharedId = 0
