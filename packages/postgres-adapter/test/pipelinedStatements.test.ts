import { expect } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * The statements of concurrent fibers share the pool's connection, pipelined (`multiplex`); on the
 * embedded database each goes message by message through `InProcessConnections`. The driver's
 * timing decides which message meets which state of that queue, so the cases that once hung (a
 * message written a few microtasks after an answer) are sent by hand in
 * `inProcessConnections.test.ts`; these are the same cases as the driver makes them.
 */
onEachDatabase("Statements of concurrent fibers pipelined on the connection", (it) => {
  it.effect("rounds of concurrent statements are each answered with their own rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (let round = 0; round < 30; round++) {
        const width = 1 + (round % 8)
        const answers = yield* Effect.all(
          Array.from({ length: width }, (_, index) =>
            sql<{ readonly n: number }>`SELECT ${round * 10 + index}::int AS n`),
          { concurrency: "unbounded" }
        )
        expect(answers.map((rows) =>
          rows[0]!.n
        )).toEqual(Array.from({ length: width }, (_, index) => round * 10 + index))
      }
    }))

  it.effect("a statement that fails mid-pipeline fails alone: the ones around it are answered", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const n = (value: number) => sql<{ readonly n: number }>`SELECT ${value}::int AS n`
      const [before, failed, after, unknownTable, last] = yield* Effect.all([
        Effect.exit(n(1)),
        Effect.exit(sql`SELECT 1 / ${0}::int`),
        Effect.exit(n(2)),
        Effect.exit(sql`SELECT * FROM no_such_table`),
        Effect.exit(n(3))
      ], { concurrency: "unbounded" })
      expect(Exit.isSuccess(failed)).toBe(false)
      expect(Exit.isSuccess(unknownTable)).toBe(false)
      const valueOf = (exit: typeof before) => Exit.isSuccess(exit) ? exit.value[0]!.n : exit
      expect([valueOf(before), valueOf(after), valueOf(last)]).toEqual([1, 2, 3])
      expect(yield* sql<{ readonly n: number }>`SELECT 4::int AS n`).toEqual([{ n: 4 }])
    }))

  it.effect("a transaction runs whole while other fibers' statements queue, and they then see what it committed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE pipelined_rows (n int NOT NULL)`
      const count = sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM pipelined_rows`.pipe(
        Effect.map((rows) => rows[0]!.count)
      )
      const transaction = sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO pipelined_rows VALUES (1)`
        yield* Effect.yieldNow
        yield* sql`INSERT INTO pipelined_rows VALUES (2)`
        return yield* count
      }))
      const [inside, ...outside] = yield* Effect.all([transaction, count, count, count], { concurrency: "unbounded" })
      expect(inside).toBe(2)
      // Each read outside ran before the transaction began or after it committed, never halfway.
      for (const seen of outside) expect([0, 2]).toContain(seen)
      expect(yield* count).toBe(2)

      const failing = sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO pipelined_rows VALUES (3)`
        return yield* sql`SELECT 1 / ${0}::int`
      }))
      const [rolledBack, meanwhile] = yield* Effect.all([Effect.exit(failing), count], { concurrency: "unbounded" })
      expect(Exit.isSuccess(rolledBack)).toBe(false)
      expect(meanwhile).toBe(2)
      expect(yield* count).toBe(2)
    }))
})
