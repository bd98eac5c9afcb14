import { TaskCreate, TaskRepository } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { gatheredPerTurn } from "../src/sql/gatheredPerTurn.ts"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/** A client of which only the transaction service is read; no statement reaches it. */
const client = () => ({ transactionService: SqlClient.TransactionConnection(-1) }) as unknown as SqlClient.SqlClient

/** Writes of names gathered per turn: a statement refuses every batch holding `refused`, recording each batch it is sent. */
const writerRefusing = (refused: string, eachAloneOnFailure: boolean) => {
  const statements: Array<ReadonlyArray<string>> = []
  const write = gatheredPerTurn({
    sql: client(),
    sendMany: (names: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        statements.push(names)
        return names.includes(refused)
          ? Effect.fail(`refused ${refused}`)
          : Effect.succeed(names.map((name) => `wrote ${name}`))
      }),
    keyOf: () => "",
    eachAloneOnFailure
  })
  return { statements, write }
}

describe("Writes gathered in one turn", () => {
  it.effect("writes asked together are one statement, each answered with its own answer in order", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("none", true)
      const answers = yield* Effect.all([write("a"), write("b"), write("c")], { concurrency: "unbounded" })
      expect(answers).toEqual(["wrote a", "wrote b", "wrote c"])
      expect(statements).toEqual([["a", "b", "c"]])
    }))

  it.effect("a write the statement refuses fails alone: the others are written again, each by itself", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("bad", true)
      const exits = yield* Effect.all([write("a"), write("bad"), write("c")], {
        concurrency: "unbounded",
        mode: "result"
      })
      expect(exits.map((exit) => exit._tag)).toEqual(["Success", "Failure", "Success"])
      expect(statements).toEqual([["a", "bad", "c"], ["a"], ["bad"], ["c"]])
    }))

  it.effect("without eachAloneOnFailure, a refused statement is every waiting write's failure", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("bad", false)
      const exits = yield* Effect.all([write("a"), write("bad")], { concurrency: "unbounded", mode: "result" })
      expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Failure"])
      expect(statements).toEqual([["a", "bad"]])
    }))

  it.effect("a write asked alone that is refused is not sent again", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("bad", true)
      expect(Exit.isFailure(yield* Effect.exit(write("bad")))).toBe(true)
      expect(statements).toEqual([["bad"]])
    }))
})

onEachDatabase("Task creates of concurrent requests gathered", (it) => {
  it.effect("creates asked together are one INSERT; each answers its own task, listed in the order asked", () =>
    Effect.gen(function*() {
      const tasks = yield* TaskRepository
      const titles = Array.from({ length: 40 }, (_, index) => `gathered ${index}`)
      const counted = yield* countStatements(Effect.forEach(
        titles,
        (title) => tasks.create(new TaskCreate({ title, description: `about ${title}` })),
        { concurrency: "unbounded" }
      ))
      expect(counted.result.map((task) => [task.title, task.description])).toEqual(
        titles.map((title) => [title, `about ${title}`])
      )
      expect(new Set(counted.result.map((task) => task.id)).size).toBe(titles.length)
      expect(counted.statements).toHaveLength(1)
      const listed = (yield* tasks.list()).filter((task) => task.title.startsWith("gathered "))
      expect(listed).toEqual(counted.result)
    }))

  it.effect("a create inside a transaction is its own statement, and rolls back with it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tasks = yield* TaskRepository
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        yield* tasks.create(new TaskCreate({ title: "rolled back", description: "" }))
        return yield* Effect.fail("undone")
      })).pipe(Effect.flip)
      expect(outcome).toBe("undone")
      expect((yield* tasks.list()).map((task) => task.title)).not.toContain("rolled back")
    }))
})
