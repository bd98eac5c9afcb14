import {
  ActivityRepository,
  AthleteCreate,
  AthleteRepository,
  LocalDateTime,
  type Session,
  SessionId,
  CoachRepository,
  SessionRepository,
  TaskCreate,
  TaskRepository,
  UserRepository
} from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int8Array } from "../src/shared/int8Array.ts"
import { maxIdsPerStatement, readsById, readsGathered, readsShared } from "../src/shared/readsGathered.ts"
import { countStatements } from "../src/testing/index.ts"
import { newActivity, newSession, newUser } from "../../core/test/repositoryContract/fixtures.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

interface Row {
  readonly id: number
  readonly name: string
}

/** A store of `count` rows read through `readsById`, recording the ids of each statement it is sent. */
const storeOf = (count: number, fail?: string) => {
  const statements: Array<ReadonlyArray<number>> = []
  const read = readsById(
    client(),
    (ids): Effect.Effect<ReadonlyArray<Row>, string> =>
      Effect.suspend(() => {
        statements.push(ids)
        if (fail !== undefined) return Effect.fail(fail)
        return Effect.succeed(ids.filter((id) => id <= count).map((id) => ({ id, name: `row ${id}` })))
      })
  )
  return { statements, read }
}

/** A client of which only the transaction service is read; no statement reaches it. */
const client = () => ({ transactionService: SqlClient.TransactionConnection(-1) }) as unknown as SqlClient.SqlClient

describe("Reads gathered in one turn", () => {
  it.effect("reads asked together are one statement, each answered with its own record or none", () =>
    Effect.gen(function*() {
      const { read, statements } = storeOf(10)
      const answers = yield* Effect.all([read(3), read(1), read(42), read(3)], { concurrency: "unbounded" })
      expect(answers).toEqual([
        Option.some({ id: 3, name: "row 3" }),
        Option.some({ id: 1, name: "row 1" }),
        Option.none(),
        Option.some({ id: 3, name: "row 3" })
      ])
      expect(statements).toEqual([[3, 1, 42, 3]])
    }))

  it.effect("reads one after the other are a statement each: none waits for a later turn", () =>
    Effect.gen(function*() {
      const { read, statements } = storeOf(10)
      expect(yield* read(1)).toEqual(Option.some({ id: 1, name: "row 1" }))
      expect(yield* read(2)).toEqual(Option.some({ id: 2, name: "row 2" }))
      expect(statements).toEqual([[1], [2]])
    }))

  it.effect(`more than ${maxIdsPerStatement} reads in one turn are sent ${maxIdsPerStatement} ids at a time`, () =>
    Effect.gen(function*() {
      const { read, statements } = storeOf(1_000)
      const ids = Array.from({ length: 2 * maxIdsPerStatement + 3 }, (_, index) => index + 1)
      const answers = yield* Effect.forEach(ids, read, { concurrency: "unbounded" })
      expect(answers.map(Option.getOrThrow).map((row) => row.id)).toEqual(ids)
      expect(statements.map((sent) => sent.length)).toEqual([maxIdsPerStatement, maxIdsPerStatement, 3])
    }))

  it.effect("a failed statement is the failure of every read that waited on it, and the next turn reads again", () =>
    Effect.gen(function*() {
      const failing = storeOf(10, "the store is gone")
      const exits = yield* Effect.all([failing.read(1), failing.read(2)], { concurrency: "unbounded", mode: "result" })
      expect(exits.map((result) => result._tag)).toEqual(["Failure", "Failure"])
      const { read } = storeOf(10)
      expect(yield* read(1)).toEqual(Option.some({ id: 1, name: "row 1" }))
    }))

  it.effect("reads of different groups are a statement a group; each read answers its id's rows, in order", () =>
    Effect.gen(function*() {
      const statements: Array<readonly [string, ReadonlyArray<number>]> = []
      // Rows of id n in group g: n rows, numbered, whose text names the group.
      const read = readsGathered({
        sql: client(),
        readMany: (ids, group: { readonly name: string }) =>
          Effect.sync(() => {
            statements.push([group.name, ids])
            return ids.flatMap((id) =>
              Array.from({ length: id }, (_, k) => ({ of: id, text: `${group.name} ${id}.${k}` }))
            )
          }),
        idOf: (row) => row.of,
        answerOf: (rows) => rows.map((row) => row.text),
        keyOf: (group) => group.name
      })
      const answers = yield* Effect.all([
        read(2, { name: "a" }),
        read(1, { name: "b" }),
        read(0, { name: "a" }),
        read(1, { name: "a" })
      ], { concurrency: "unbounded" })
      expect(answers).toEqual([["a 2.0", "a 2.1"], ["b 1.0"], [], ["a 1.0"]])
      expect(statements).toEqual([["a", [2, 0, 1]], ["b", [1]]])
    }))

  it.effect("a read of an id that is not a safe integer is sent alone: its failure stays its own", () =>
    Effect.gen(function*() {
      const sent: Array<ReadonlyArray<number>> = []
      const read = readsById(client(), (ids) => {
        // As the repositories build their statements: a fraction throws here, before any statement is sent.
        const asked = int8Array(ids)
        sent.push(ids)
        return Effect.succeed(asked.map((id) => ({ id: Number(id), name: `row ${id}` })))
      })
      const [fraction, two, huge] = yield* Effect.all([Effect.exit(read(1.5)), read(2), read(2 ** 60)], {
        concurrency: "unbounded"
      })
      expect(Exit.hasDies(fraction)).toBe(true)
      expect(two).toEqual(Option.some({ id: 2, name: "row 2" }))
      expect(huge).toEqual(Option.some({ id: 2 ** 60, name: `row ${2n ** 60n}` }))
      expect(sent).toEqual([[2 ** 60], [2]])
    }))

  it.effect("a read whose caller was interrupted while waiting leaves the others answered", () =>
    Effect.gen(function*() {
      const { read, statements } = storeOf(10)
      const gone = yield* Effect.forkChild(read(1), { startImmediately: true })
      const staying = yield* Effect.forkChild(read(2), { startImmediately: true })
      yield* Fiber.interrupt(gone)
      expect(yield* Fiber.join(staying)).toEqual(Option.some({ id: 2, name: "row 2" }))
      expect(Exit.hasInterrupts(yield* Fiber.await(gone))).toBe(true)
      expect(statements).toEqual([[1, 2]])
    }))
})

describe("Reads that ask the same, shared in one turn", () => {
  /** A table of `rows`, read whole through `readsShared`, counting the statements it is sent. */
  const tableOf = (rows: Array<Row>) => {
    let statements = 0
    const read = readsShared(
      client(),
      Effect.sync(() => {
        statements++
        return [...rows]
      })
    )
    return { read, statements: () => statements }
  }

  it.effect("reads asked together are one statement, each answered with every row", () =>
    Effect.gen(function*() {
      const table = tableOf([{ id: 1, name: "one" }, { id: 2, name: "two" }])
      const answers = yield* Effect.all([table.read, table.read, table.read], { concurrency: "unbounded" })
      expect(answers).toEqual(Array.from({ length: 3 }, () => [{ id: 1, name: "one" }, { id: 2, name: "two" }]))
      expect(table.statements()).toBe(1)
    }))

  it.effect("a read asked after another was answered is a statement of its own, and sees what changed between", () =>
    Effect.gen(function*() {
      const rows = [{ id: 1, name: "one" }]
      const table = tableOf(rows)
      expect(yield* table.read).toEqual([{ id: 1, name: "one" }])
      rows.push({ id: 2, name: "two" })
      expect(yield* table.read).toEqual([{ id: 1, name: "one" }, { id: 2, name: "two" }])
      expect(table.statements()).toBe(2)
    }))

  it.effect("an empty table answers every read with no rows", () =>
    Effect.gen(function*() {
      const table = tableOf([])
      expect(yield* Effect.all([table.read, table.read], { concurrency: "unbounded" })).toEqual([[], []])
      expect(table.statements()).toBe(1)
    }))
})

onEachDatabase("Reads of concurrent requests gathered", (it) => {
  it.effect("reads by id of each kind asked together are one statement a kind", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionRepository
      const athletes = yield* AthleteRepository
      const activities = yield* ActivityRepository
      const users = yield* UserRepository
      const athlete = yield* athletes.create(
        new AthleteCreate({ id: null, name: "read", categorie: null, niveau: null })
      )
      const first = yield* sessions.create(newSession({ name: "first", athleteIds: [athlete.id] }))
      const second = yield* sessions.create(newSession({ name: "second" }))
      const activity = yield* activities.create(newActivity(first.id, "together"))
      const user = yield* users.create(newUser("together", "COACH"))
      const unknown = SessionId.make(second.id + 1_000)

      const counted = yield* countStatements(Effect.all({
        sessions: Effect.all([sessions.findById(second.id), sessions.findById(unknown), sessions.findById(first.id)], {
          concurrency: "unbounded"
        }),
        athlete: athletes.findById(athlete.id),
        activity: activities.findById(activity.id),
        user: users.findById(user.id)
      }, { concurrency: "unbounded" }))

      expect(counted.result.sessions.map(Option.map((session) => session.name))).toEqual([
        Option.some("second"),
        Option.none(),
        Option.some("first")
      ])
      expect(Option.getOrThrow(counted.result.sessions[2]!).athleteIds).toEqual([athlete.id])
      expect(Option.map(counted.result.athlete, (found) => found.name)).toEqual(Option.some("read"))
      expect(Option.map(counted.result.activity, (found) => found.name)).toEqual(Option.some("together"))
      expect(Option.map(counted.result.user, (found) => found.name)).toEqual(Option.some("together"))
      expect(counted.statements).toHaveLength(4)
    }))

  it.effect("an athlete's sessions in one range and a session's activities, asked together, are one statement each", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionRepository
      const athletes = yield* AthleteRepository
      const activities = yield* ActivityRepository
      const athleteNamed = (name: string) =>
        athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null }))
      const [one, two, none] = [yield* athleteNamed("one"), yield* athleteNamed("two"), yield* athleteNamed("none")]
      const at = (creneau: string, athleteIds: ReadonlyArray<typeof one.id>) =>
        sessions.create(newSession({ name: creneau, creneau, athleteIds }))
      const early = yield* at("2031-01-05T10:00:00", [one.id, two.id])
      const late = yield* at("2031-03-05T10:00:00", [one.id])
      const outside = yield* at("2032-01-05T10:00:00", [two.id])
      const warmUp = yield* activities.create(newActivity(early.id, "warm-up"))
      const drill = yield* activities.create(newActivity(early.id, "drill"))
      const range = {
        after: LocalDateTime.make("2031-01-01T00:00:00"),
        before: LocalDateTime.make("2031-12-31T00:00:00")
      }
      const idsOf = (found: ReadonlyArray<{ readonly id: number }>) => found.map((row) => row.id)

      const counted = yield* countStatements(Effect.all([
        sessions.summariesOfAthlete(one.id, range),
        sessions.summariesOfAthlete(two.id, range),
        sessions.summariesOfAthlete(none.id, range),
        sessions.summariesOfAthlete(two.id, {}),
        sessions.activitySummaries(early.id),
        sessions.activitySummaries(late.id)
      ], { concurrency: "unbounded" }))

      const [ofOne, ofTwo, ofNone, ofTwoEver, activitiesOfEarly, activitiesOfLate] = counted.result
      expect(idsOf(ofOne)).toEqual([early.id, late.id])
      expect(idsOf(ofTwo)).toEqual([early.id])
      expect(ofNone).toEqual([])
      expect(idsOf(ofTwoEver)).toEqual([early.id, outside.id])
      expect(idsOf(activitiesOfEarly)).toEqual([warmUp.id, drill.id])
      expect(activitiesOfLate).toEqual([])
      // The range of three reads, all time for one, and the activities.
      expect(counted.statements).toHaveLength(3)
    }))

  it.effect("a read inside a transaction sees the transaction's own writes, and a read outside it in the same turn does not", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      const session = yield* sessions.create(newSession({ name: "before" }))
      const nameOf = Option.map((found: Session) => found.name)
      // Another request's read: the same fiber's context without the transaction.
      const withoutTransaction = (context: Context.Context<never>): Context.Context<never> =>
        Context.omit(sql.transactionService)(context)
      const outside = sessions.findById(session.id).pipe(Effect.updateContext(withoutTransaction))
      let other: Fiber.Fiber<Option.Option<Session>> | undefined
      let inside: Option.Option<Session> = Option.none()
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`UPDATE sessions SET name = 'inside' WHERE id = ${session.id}`
        other = yield* Effect.forkDetach(outside, { startImmediately: true })
        inside = yield* sessions.findById(session.id)
        return yield* Effect.fail("rolled back")
      })).pipe(Effect.flip)
      expect(nameOf(inside)).toEqual(Option.some("inside"))
      // Rolled back: no read outside the transaction ever sees its write.
      expect(nameOf(yield* Fiber.join(other!))).toEqual(Option.some("before"))
      expect(nameOf(yield* sessions.findById(session.id))).toEqual(Option.some("before"))
    }))
  it.effect("whole-table lists asked together are one statement a table; a list asked after a write sees it", () =>
    Effect.gen(function*() {
      const activities = yield* ActivityRepository
      const sessions = yield* SessionRepository
      const athletes = yield* AthleteRepository
      const coaches = yield* CoachRepository
      const users = yield* UserRepository
      const tasks = yield* TaskRepository
      const athleteNamed = (name: string) =>
        athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null }))
      const first = yield* athleteNamed("listed first")
      const task = yield* tasks.create(new TaskCreate({ title: "listed", description: "" }))
      yield* users.create(newUser("listed", "COACH"))
      const activity = yield* activities.create(newActivity((yield* sessions.create(newSession())).id, "listed"))
      const idsOf = (found: ReadonlyArray<{ readonly id: unknown }>) => found.map((row) => row.id)

      const counted = yield* countStatements(Effect.all([
        athletes.list(),
        athletes.list(),
        coaches.list(),
        users.list(),
        tasks.list(),
        tasks.list(),
        activities.list(),
        activities.list()
      ], { concurrency: "unbounded" }))

      // Each answer is the whole table, as a list asked alone answers it.
      const [ofAthletes, againOfAthletes, ofCoaches, ofUsers, ofTasks, againOfTasks, ofActivities, againOfActivities] =
        counted.result
      expect(idsOf(ofAthletes)).toContain(first.id)
      expect(againOfAthletes).toEqual(ofAthletes)
      expect(ofAthletes).toEqual(yield* athletes.list())
      expect(ofCoaches).toEqual(yield* coaches.list())
      expect(ofCoaches.length).toBeGreaterThan(0)
      expect(ofUsers).toEqual(yield* users.list())
      expect(ofUsers.map((user) => user.name)).toContain("listed")
      expect(idsOf(ofTasks)).toContain(task.id)
      expect(againOfTasks).toEqual(ofTasks)
      expect(idsOf(ofActivities)).toContain(activity.id)
      expect(againOfActivities).toEqual(ofActivities)
      expect(counted.statements).toHaveLength(5)

      const second = yield* athleteNamed("listed second")
      expect(idsOf(yield* athletes.list())).toEqual([...idsOf(ofAthletes), second.id])
    }))
})
