import { Array as Arr, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { gatheredPerTurn, maxAsksPerStatement } from "./gatheredPerTurn.ts"

/** The most ids one statement asks for; more reads waiting in one turn are sent as further statements. */
export const maxIdsPerStatement = maxAsksPerStatement

/**
 * Reads of rows by the id they belong to (a record's own id, or the athlete or session a list is
 * of), gathered from every request of one turn of the event loop (`gatheredPerTurn`) and sent as
 * one statement per group (`readMany` of their ids; reads of one group share everything but the
 * id, as a range of dates). Each read is answered with `answerOf` of the rows of its id, in the
 * statement's order. A read of an id that is not a safe integer is sent alone, whatever failure it
 * meets staying its own.
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
  const read = gatheredPerTurn<{ readonly id: number; readonly group: G }, Answer, E>({
    sql,
    sendMany: (reads) =>
      Effect.map(readMany(reads.map((one) => one.id), reads[0]!.group), (rows) => {
        const byId: Partial<Record<string, ReadonlyArray<A>>> = Arr.groupBy(rows, (row) => String(idOf(row)))
        return reads.map((one) => answerOf(byId[String(one.id)] ?? []))
      }),
    keyOf: (one) => keyOf(one.group),
    alone: (one) => !Number.isSafeInteger(one.id)
  })
  return (id, group) => read({ id, group })
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
): Effect.Effect<ReadonlyArray<A>, E> =>
  gatheredPerTurn<undefined, ReadonlyArray<A>, E>({
    sql,
    sendMany: (reads) => Effect.map(readAll, (rows) => reads.map(() => rows)),
    keyOf: () => ""
  })(undefined)
