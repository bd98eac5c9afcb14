import {
  ActivityRepository,
  ActivityWrite,
  type AthleteId,
  AuditActor,
  type CoachId,
  EntityNotFound,
  type LocalDateTime,
  SessionCreate,
  SessionId,
  SessionRepository,
  TaskCreate,
  TaskRepository,
  UnknownReferences,
  WriteOutcomeUnknown
} from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { type Cause, Effect, Exit, Option, Result } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { maxLabelsGathered } from "../src/records/ActivityRepositoryLive.ts"
import { maxAthletesGathered, updatesPerTransaction } from "../src/sessions/SessionRepositoryLive.ts"
import { gatheredPerTurn } from "../src/shared/gatheredPerTurn.ts"
import { refusedByServer } from "../src/shared/refusedByServer.ts"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/** A client of which only the transaction service is read; no statement reaches it. */
const client = () => ({ transactionService: SqlClient.TransactionConnection(-1) }) as unknown as SqlClient.SqlClient

/** A refusal as PostgreSQL sends it: an ErrorResponse of an integrity constraint (class 23). */
const refusal = (name: string) =>
  new SqlError.SqlError({
    reason: new SqlError.ConstraintError({
      cause: Object.assign(new Error(`refused ${name}`), { severity: "ERROR", code: "23514" }),
      message: "PgConnection: Query failed",
      operation: "query"
    })
  })

/** A lost connection: the statement may have been kept. */
const lostConnection = () =>
  new SqlError.SqlError({
    reason: new SqlError.ConnectionError({
      cause: new Error("read ECONNRESET"),
      message: "PgConnection: Connection lost",
      operation: "query"
    })
  })

/**
 * Writes of names gathered per turn: a statement fails every batch holding `failing` (or for which
 * `failing` says so) as `failure` makes it, recording each batch it is sent.
 */
const writerFailing = (
  failing: string | ((names: ReadonlyArray<string>) => boolean),
  failure: (name: string) => SqlError.SqlError,
  eachAloneWhen?: (cause: Cause.Cause<SqlError.SqlError>) => boolean
) => {
  const statements: Array<ReadonlyArray<string>> = []
  const fails = typeof failing === "string" ? (names: ReadonlyArray<string>) => names.includes(failing) : failing
  const write = gatheredPerTurn({
    sql: client(),
    sendMany: (names: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        statements.push(names)
        return fails(names)
          ? Effect.fail(failure(String(failing)))
          : Effect.succeed(names.map((name) => `wrote ${name}`))
      }),
    keyOf: () => "",
    ...(eachAloneWhen === undefined ? {} : { eachAloneWhen })
  })
  return { statements, write }
}
const writerRefusing = (refused: string, eachAlone: boolean) =>
  writerFailing(refused, refusal, eachAlone ? refusedByServer() : undefined)

describe("Writes gathered in one turn", () => {
  it.effect("writes asked together are one statement, each answered with its own answer in order", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("none", true)
      const answers = yield* Effect.all([write("a"), write("b"), write("c")], { concurrency: "unbounded" })
      expect(answers).toEqual(["wrote a", "wrote b", "wrote c"])
      expect(statements).toEqual([["a", "b", "c"]])
    }))

  it.effect("with maxAsks, the writes of a turn are sent in parts of that many, each answered its own", () =>
    Effect.gen(function*() {
      const sent: Array<ReadonlyArray<number>> = []
      const write = gatheredPerTurn({
        sql: client(),
        sendMany: (asks: ReadonlyArray<number>) =>
          Effect.sync(() => {
            sent.push(asks)
            return asks.map((ask) => ask * 10)
          }),
        keyOf: () => "",
        maxAsks: 3
      })
      const answers = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7], write, { concurrency: "unbounded" })
      expect(answers).toEqual([10, 20, 30, 40, 50, 60, 70])
      expect(sent).toEqual([[1, 2, 3], [4, 5, 6], [7]])
    }))

  it.effect("a write the server refuses fails alone: the others are written again, each by itself", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("bad", true)
      const exits = yield* Effect.all([write("a"), write("bad"), write("c")], {
        concurrency: "unbounded",
        mode: "result"
      })
      expect(exits.map((exit) => exit._tag)).toEqual(["Success", "Failure", "Success"])
      expect(statements).toEqual([["a", "bad", "c"], ["a"], ["bad"], ["c"]])
    }))

  it.effect("a batch PostgreSQL rolled back for a deadlock or a serialization failure is sent again, each alone", () =>
    Effect.gen(function*() {
      // As the driver reports them: a deadlock, a serialization failure, else an unknown error.
      const rolledBack = (code: string) => (name: string) => {
        const fields = {
          cause: Object.assign(new Error(`${code} ${name}`), { severity: "ERROR", code }),
          message: "PgConnection: Query failed",
          operation: "query"
        }
        return new SqlError.SqlError({
          reason: code === "40P01"
            ? new SqlError.DeadlockError(fields)
            : code === "40001"
            ? new SqlError.SerializationError(fields)
            : new SqlError.UnknownError(fields)
        })
      }
      for (const code of ["40P01", "40001"]) {
        // The batch fails; alone, each is written (the other transaction is gone).
        let failures = 1
        const { statements, write } = writerFailing(() => failures-- > 0, rolledBack(code), refusedByServer())
        const answers = yield* Effect.all([write("a"), write("b")], { concurrency: "unbounded" })
        expect(answers, code).toEqual(["wrote a", "wrote b"])
        expect(statements, code).toEqual([["a", "b"], ["a"], ["b"]])
      }
      // Class 40's statement completion unknown may have kept the write: never sent again.
      const { statements, write } = writerFailing("b", rolledBack("40003"), refusedByServer())
      const exits = yield* Effect.all([write("a"), write("b")], { concurrency: "unbounded", mode: "result" })
      expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Failure"])
      expect(statements).toEqual([["a", "b"]])
    }))

  it.effect("without eachAloneWhen, a refused statement is every waiting write's failure", () =>
    Effect.gen(function*() {
      const { statements, write } = writerRefusing("bad", false)
      const exits = yield* Effect.all([write("a"), write("bad")], { concurrency: "unbounded", mode: "result" })
      expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Failure"])
      expect(statements).toEqual([["a", "bad"]])
    }))

  it.effect("a lost connection, a defect or an unknown commit is every write's failure, and nothing is sent again", () =>
    Effect.gen(function*() {
      const failures: ReadonlyArray<(name: string) => SqlError.SqlError> = [
        lostConnection,
        // A refusal's code without the server's severity: not the server's word.
        (name) =>
          new SqlError.SqlError({
            reason: new SqlError.ConstraintError({
              cause: Object.assign(new Error(name), { code: "23514" }),
              message: "client-side",
              operation: "query"
            })
          })
      ]
      for (const failure of failures) {
        const { statements, write } = writerFailing("bad", failure, refusedByServer())
        const exits = yield* Effect.all([write("a"), write("bad"), write("c")], {
          concurrency: "unbounded",
          mode: "result"
        })
        expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Failure", "Failure"])
        expect(statements).toEqual([["a", "bad", "c"]])
      }
      const statements: Array<ReadonlyArray<string>> = []
      const write = gatheredPerTurn({
        sql: client(),
        sendMany: (names: ReadonlyArray<string>) =>
          Effect.suspend(() => {
            statements.push(names)
            return Effect.die(new WriteOutcomeUnknown({ cause: lostConnection() }))
          }),
        keyOf: () => "",
        eachAloneWhen: refusedByServer()
      })
      const exits = yield* Effect.all([Effect.exit(write("a")), Effect.exit(write("b"))], { concurrency: "unbounded" })
      expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Failure"])
      expect(statements).toEqual([["a", "b"]])
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

  it.effect("creates of one user asked together are one INSERT naming them, with no statement more", () =>
    Effect.gen(function*() {
      const tasks = yield* TaskRepository
      const actor = { userId: 5, role: "COACH", requestId: "req-gathered" }
      const counted = yield* countStatements(Effect.forEach(
        ["named 1", "named 2", "named 3"],
        (title) =>
          tasks.create(new TaskCreate({ title, description: "" })).pipe(Effect.provideService(AuditActor, actor)),
        { concurrency: "unbounded" }
      ))
      expect(counted.statements).toHaveLength(1)
      const sql = yield* SqlClient.SqlClient
      const named = yield* sql<{ actor_user_id: string | number }>`SELECT actor_user_id FROM audit_entries
        WHERE record_type = 'tasks' AND request_id = 'req-gathered'`
      expect(named.map((row) => Number(row.actor_user_id))).toEqual([5, 5, 5])
    }))

  it.effect("creates of several users and of the server asked together are one INSERT, each entry naming its own", () =>
    Effect.gen(function*() {
      const tasks = yield* TaskRepository
      const coach = { userId: 5, role: "COACH", requestId: "req-rows-coach" }
      const admin = { userId: 6, role: "ADMIN", requestId: "req-rows-admin" }
      // Interleaved, so that a row given its neighbour's actor would show.
      const asked = [
        ["rows 1", coach],
        ["rows 2", admin],
        ["rows 3", undefined],
        ["rows 4", coach],
        ["rows 5", admin]
      ] as const
      const counted = yield* countStatements(Effect.forEach(
        asked,
        ([title, actor]) => {
          const create = tasks.create(new TaskCreate({ title, description: "" }))
          return actor === undefined ? create : create.pipe(Effect.provideService(AuditActor, actor))
        },
        { concurrency: "unbounded" }
      ))
      expect(counted.statements).toHaveLength(1)
      const sql = yield* SqlClient.SqlClient
      const entries = yield* sql<{ title: string; actor_user_id: string | number | null; request_id: string | null }>`
        SELECT changes ->> 'title' AS title, actor_user_id, request_id FROM audit_entries
        WHERE record_type = 'tasks' AND changes ->> 'title' LIKE 'rows %' ORDER BY changes ->> 'title'`
      expect(entries.map((e) => [e.title, e.actor_user_id === null ? null : Number(e.actor_user_id), e.request_id]))
        .toEqual([
          ["rows 1", 5, "req-rows-coach"],
          ["rows 2", 6, "req-rows-admin"],
          ["rows 3", null, null],
          ["rows 4", 5, "req-rows-coach"],
          ["rows 5", 6, "req-rows-admin"]
        ])
      // The setting ended with its statement: a write after it on the same connection names no one.
      yield* tasks.create(new TaskCreate({ title: "rows after", description: "" }))
      const [after] = yield* sql<{ actor_user_id: string | null }>`SELECT actor_user_id FROM audit_entries
        WHERE record_type = 'tasks' AND changes ->> 'title' = 'rows after'`
      expect(after?.actor_user_id).toBeNull()
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

onEachDatabase("Activity creates of concurrent requests gathered", (it) => {
  const sessionIds = (sql: SqlClient.SqlClient, count: number) =>
    Effect.map(
      sql<
        { id: string | number }
      >`INSERT INTO sessions (name) SELECT 'gathered ' || n FROM generate_series(1, ${count}) AS n RETURNING id`,
      (rows) => rows.map((row) => SessionId.make(Number(row.id)))
    )
  /** The repository, and a session of its own for a test's activities. */
  const oneSession = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [session] = yield* sessionIds(sql, 1)
    return { sql, activities: yield* ActivityRepository, session: session! }
  })
  const activity = (name: string, sessionId: SessionId) =>
    new ActivityWrite({
      name,
      theme: "gathered",
      duree: 30,
      dataActivite: [name, "with, a comma", "{braces}"],
      sessionId
    })

  it.effect("creates asked together are one INSERT; each answers its own activity, ids in the order asked", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const activities = yield* ActivityRepository
      const sessions = yield* sessionIds(sql, 4)
      const asked = Array.from({ length: 40 }, (_, index) => activity(`gathered ${index}`, sessions[index % 4]!))
      const counted = yield* countStatements(
        Effect.forEach(asked, (input) => activities.create(input), { concurrency: "unbounded" })
      )
      expect(counted.result.map(({ id: _, ...values }) => values)).toEqual(asked.map((input) => ({ ...input })))
      const ids = counted.result.map((created) => created.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      expect(new Set(ids).size).toBe(asked.length)
      expect(counted.statements.filter((text) => text.includes("INSERT INTO activities"))).toHaveLength(1)
      for (const created of counted.result) expect(yield* activities.findById(created.id)).toEqual(Option.some(created))
    }))

  it.effect("creates of several users asked together are one INSERT in one transaction, each entry naming its own", () =>
    Effect.gen(function*() {
      const { activities, session, sql } = yield* oneSession
      const coach = { userId: 5, role: "COACH", requestId: "req-activity-rows-coach" }
      const admin = { userId: 6, role: "ADMIN", requestId: "req-activity-rows-admin" }
      const asked = [["by coach 1", coach], ["by admin", admin], ["by server", undefined], [
        "by coach 2",
        coach
      ]] as const
      const counted = yield* countStatements(Effect.forEach(
        asked,
        ([name, actor]) => {
          const create = activities.create(activity(name, session))
          return actor === undefined ? create : create.pipe(Effect.provideService(AuditActor, actor))
        },
        { concurrency: "unbounded" }
      ))
      expect(counted.statements.filter((text) => text.includes("INSERT INTO activities"))).toHaveLength(1)
      // No setting of the transaction's own: the INSERT names its rows' actors itself.
      expect(counted.statements.filter((text) => text.includes("club.audit_actor"))).toHaveLength(0)
      const entries = yield* sql<{ name: string; actor_user_id: string | number | null; request_id: string | null }>`
        SELECT changes ->> 'name' AS name, actor_user_id, request_id FROM audit_entries
        WHERE record_type = 'activities' AND changes ->> 'name' LIKE 'by %' ORDER BY id`
      expect(entries.map((e) => [e.name, e.actor_user_id === null ? null : Number(e.actor_user_id), e.request_id]))
        .toEqual([
          ["by coach 1", 5, "req-activity-rows-coach"],
          ["by admin", 6, "req-activity-rows-admin"],
          ["by server", null, null],
          ["by coach 2", 5, "req-activity-rows-coach"]
        ])
    }))

  it.effect("a create of many labels is its own statement; the others are gathered", () =>
    Effect.gen(function*() {
      const { activities, session } = yield* oneSession
      const labels = Array.from({ length: maxLabelsGathered + 1 }, (_, index) => `label ${index}`)
      const many = new ActivityWrite({ ...activity("many labels", session), dataActivite: labels })
      const counted = yield* countStatements(Effect.forEach(
        [activity("few labels", session), many, activity("few labels too", session)],
        (input) => activities.create(input),
        { concurrency: "unbounded" }
      ))
      expect(counted.result.map((created) => created.name)).toEqual(["few labels", "many labels", "few labels too"])
      expect(counted.result[1]!.dataActivite).toEqual(labels)
      expect(counted.statements.filter((text) => text.includes("INSERT INTO activities"))).toHaveLength(2)
    }))

  it.effect("text is stored as a single create stores it: a lone surrogate as U+FFFD", () =>
    Effect.gen(function*() {
      const { activities, session } = yield* oneSession
      const asked = new ActivityWrite({
        name: "lone \ud800 surrogate",
        theme: "quote \" backslash \\ tab \t é 🏃",
        duree: Number.MAX_SAFE_INTEGER,
        dataActivite: ["\udfff", "", "NULL"],
        sessionId: session
      })
      const [one, two] = yield* Effect.forEach([asked, asked], (input) => activities.create(input), {
        concurrency: "unbounded"
      })
      for (const created of [one!, two!]) {
        expect(created.name).toBe("lone \ufffd surrogate")
        expect(created.theme).toBe(asked.theme)
        expect(created.duree).toBe(Number.MAX_SAFE_INTEGER)
        expect(created.dataActivite).toEqual(["\ufffd", "", "NULL"])
      }
    }))

  it.effect("an unknown session fails its own create alone; the others are written", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const activities = yield* ActivityRepository
      const [known] = yield* sessionIds(sql, 1)
      const unknown = SessionId.make(known! + 1000)
      const results = yield* Effect.forEach(
        [activity("first", known!), activity("lost", unknown), activity("third", known!)],
        (input) => Effect.result(activities.create(input)),
        { concurrency: "unbounded" }
      )
      expect(results.map((result) => result._tag)).toEqual(["Success", "Failure", "Success"])
      expect(results[1]).toEqual(
        Result.fail(new UnknownReferences({ field: "sessionId", entity: "Session", ids: [unknown] }))
      )
      const names = (yield* activities.list()).map((stored) => stored.name)
      expect(names).toEqual(expect.arrayContaining(["first", "third"]))
      expect(names).not.toContain("lost")
    }))

  // The database refuses a row it could not answer (migration 0040): a refusal by the server, so the
  // creates of its statement are sent again alone, and only the spoiled one fails.
  it.effect("a row that could not be read back is refused by the database, and only its own create fails", () =>
    Effect.gen(function*() {
      const { activities, session, sql } = yield* oneSession
      // What the database would store differs from what was asked and could not be answered: a
      // duration beyond JavaScript's safe integers.
      yield* sql`CREATE FUNCTION spoil_duree() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN IF NEW.name = 'spoiled' THEN NEW.duree := 9007199254740993; END IF; RETURN NEW; END $$`
      yield* sql`CREATE TRIGGER spoil BEFORE INSERT ON activities FOR EACH ROW EXECUTE FUNCTION spoil_duree()`
      const exits = yield* Effect.forEach(
        [activity("kept", session), activity("spoiled", session)],
        (input) => Effect.exit(activities.create(input)),
        { concurrency: "unbounded" }
      )
      expect(exits.map((exit) => exit._tag)).toEqual(["Success", "Failure"])
      const names = (yield* activities.list()).map((stored) => stored.name)
      expect(names).toContain("kept")
      expect(names).not.toContain("spoiled")
    }))

  it.effect("a create inside a transaction is its own statement, and rolls back with it", () =>
    Effect.gen(function*() {
      const { activities, session, sql } = yield* oneSession
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        yield* activities.create(activity("rolled back", session))
        return yield* Effect.fail("undone")
      })).pipe(Effect.flip)
      expect(outcome).toBe("undone")
      expect((yield* activities.list()).map((stored) => stored.name)).not.toContain("rolled back")
    }))
})

onEachDatabase("Session creates of concurrent requests gathered", (it) => {
  /** Athletes and a coach of the test's own. */
  const people = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const athletes = yield* sql<{ id: string | number }>`INSERT INTO athletes (name)
      SELECT 'gathered athlete ' || n FROM generate_series(1, 4) AS n RETURNING id`
    const [coach] = yield* sql<
      { id: string | number }
    >`INSERT INTO coaches (name) VALUES ('gathered coach') RETURNING id`
    return {
      sql,
      sessions: yield* SessionRepository,
      athletes: athletes.map((row) => Number(row.id) as AthleteId),
      coach: Number(coach!.id) as CoachId
    }
  })
  const session = (name: string, athleteIds: ReadonlyArray<AthleteId>, coachId: CoachId | null = null) =>
    new SessionCreate({
      id: null,
      name,
      isRecurrent: name.length % 2 === 0,
      creneau: "2031-05-04T18:30:00" as LocalDateTime,
      duree: name.length,
      groupe: `group of ${name}`,
      coachId,
      athleteIds,
      activiteIds: []
    })

  it.effect("creates asked together are one statement; each answers its own session, ids in the order asked", () =>
    Effect.gen(function*() {
      const { athletes, coach, sessions } = yield* people
      const asked = Array.from({ length: 30 }, (_, index) =>
        session(
          `gathered session ${index}`,
          athletes.filter((_, i) => (index + i) % 3 !== 0).concat(index % 5 === 0 ? [athletes[0]!] : []),
          index % 2 === 0 ? coach : null
        ))
      const counted = yield* countStatements(
        Effect.forEach(asked, (input) => sessions.create(input), { concurrency: "unbounded" })
      )
      expect(counted.statements).toHaveLength(1)
      expect(counted.result.map(({ id: _, ...values }) => values)).toEqual(asked.map((input) => ({
        name: input.name,
        isRecurrent: input.isRecurrent,
        creneau: input.creneau,
        duree: input.duree,
        groupe: input.groupe,
        coachId: input.coachId,
        athleteIds: [...new Set(input.athleteIds)].sort((a, b) => a - b),
        activiteIds: []
      })))
      const ids = counted.result.map((created) => created.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      expect(new Set(ids).size).toBe(asked.length)
      for (const created of counted.result) expect(yield* sessions.findById(created.id)).toEqual(Option.some(created))
    }))

  it.effect("creates of several users asked together name each their own, for the session and for its athletes", () =>
    Effect.gen(function*() {
      const { athletes, sessions, sql } = yield* people
      const coach = { userId: 5, role: "COACH", requestId: "req-session-rows-coach" }
      const admin = { userId: 6, role: "ADMIN", requestId: "req-session-rows-admin" }
      const asked = [
        ["rows by coach 1", [athletes[0]!, athletes[1]!], coach],
        ["rows by admin", [athletes[2]!], admin],
        ["rows by server", [athletes[3]!, athletes[0]!], undefined],
        ["rows by coach 2", [], coach]
      ] as const
      const counted = yield* countStatements(Effect.forEach(
        asked,
        ([name, athleteIds, actor]) => {
          const create = sessions.create(session(name, athleteIds))
          return actor === undefined ? create : create.pipe(Effect.provideService(AuditActor, actor))
        },
        { concurrency: "unbounded" }
      ))
      expect(counted.statements).toHaveLength(1)
      const actorOf = (
        e: { actor_user_id: string | number | null; request_id: string | null }
      ) => [e.actor_user_id === null ? null : Number(e.actor_user_id), e.request_id]
      const sessionEntries = yield* sql<
        { name: string; actor_user_id: string | number | null; request_id: string | null }
      >`
        SELECT changes ->> 'name' AS name, actor_user_id, request_id FROM audit_entries
        WHERE record_type = 'sessions' AND changes ->> 'name' LIKE 'rows by %' ORDER BY id`
      expect(sessionEntries.map((e) => [e.name, ...actorOf(e)])).toEqual([
        ["rows by coach 1", 5, "req-session-rows-coach"],
        ["rows by admin", 6, "req-session-rows-admin"],
        ["rows by server", null, null],
        ["rows by coach 2", 5, "req-session-rows-coach"]
      ])
      const ids = counted.result.map((created) => BigInt(created.id))
      const athleteEntries = yield* sql<
        {
          session: string | number
          athlete: string | number
          actor_user_id: string | number | null
          request_id: string | null
        }
      >`SELECT record_ids ->> 'session_id' AS session, record_ids ->> 'athlete_id' AS athlete, actor_user_id, request_id
        FROM audit_entries WHERE record_type = 'session_athletes' AND operation = 'insert'
          AND (record_ids ->> 'session_id')::bigint = ANY(${ids}::bigint[]) ORDER BY id`
      expect(athleteEntries.map((e) => [Number(e.session), Number(e.athlete), ...actorOf(e)])).toEqual([
        [counted.result[0]!.id, athletes[0], 5, "req-session-rows-coach"],
        [counted.result[0]!.id, athletes[1], 5, "req-session-rows-coach"],
        [counted.result[1]!.id, athletes[2], 6, "req-session-rows-admin"],
        [counted.result[2]!.id, athletes[3], null, null],
        [counted.result[2]!.id, athletes[0], null, null]
      ])
    }))

  it.effect("an unknown athlete or coach fails its own create alone, named; the others are written", () =>
    Effect.gen(function*() {
      const { athletes, coach, sessions, sql } = yield* people
      const unknownAthlete = (athletes.at(-1)! + 1000) as AthleteId
      const unknownCoach = (coach + 1000) as CoachId
      const results = yield* Effect.forEach(
        [
          session("refusal first", [athletes[0]!]),
          session("refusal lost athlete", [athletes[1]!, unknownAthlete]),
          session("refusal lost coach", [athletes[2]!], unknownCoach),
          session("refusal fourth", [athletes[3]!], coach)
        ],
        (input) => Effect.result(sessions.create(input)),
        { concurrency: "unbounded" }
      )
      expect(results.map((result) => result._tag)).toEqual(["Success", "Failure", "Failure", "Success"])
      expect(results[1]).toEqual(
        Result.fail(new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [unknownAthlete] }))
      )
      expect(results[2]).toEqual(
        Result.fail(new UnknownReferences({ field: "coachId", entity: "Coach", ids: [unknownCoach] }))
      )
      // By name: a create sent again alone may be written after one of a later turn.
      const kept = yield* sql<{ name: string }>`SELECT name FROM sessions WHERE name LIKE 'refusal %' ORDER BY name`
      expect(kept.map((row) => row.name)).toEqual(["refusal first", "refusal fourth"])
      const events = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM attendance_events
        WHERE type = 'sessionCreated' AND data ->> 'name' LIKE 'refusal %'`
      expect(events[0]!.count).toBe(2)
    }))

  it.effect("a create of many athletes is its own statement; the others are gathered", () =>
    Effect.gen(function*() {
      const { athletes, sessions, sql } = yield* people
      const more = yield* sql<{ id: string | number }>`INSERT INTO athletes (name)
        SELECT 'many athletes ' || n FROM generate_series(1, ${maxAthletesGathered + 1}) AS n RETURNING id`
      const many = more.map((row) => Number(row.id) as AthleteId)
      const counted = yield* countStatements(Effect.forEach(
        [session("few athletes", [athletes[0]!]), session("many athletes", many), session("few too", [])],
        (input) => sessions.create(input),
        { concurrency: "unbounded" }
      ))
      expect(counted.result.map((created) => created.name)).toEqual(["few athletes", "many athletes", "few too"])
      expect(counted.result[1]!.athleteIds).toEqual([...many].sort((a, b) => a - b))
      expect(counted.statements).toHaveLength(2)
    }))

  it.effect("text is stored as a single create stores it: a lone surrogate as U+FFFD", () =>
    Effect.gen(function*() {
      const { sessions } = yield* people
      const asked = new SessionCreate({
        ...session("lone \ud800 surrogate", []),
        groupe: "quote \" backslash \\ tab \t é 🏃",
        duree: Number.MAX_SAFE_INTEGER
      })
      const alone = yield* sessions.create(asked)
      const [one, two] = yield* Effect.forEach([asked, asked], (input) => sessions.create(input), {
        concurrency: "unbounded"
      })
      for (const created of [one!, two!]) {
        expect({ ...created, id: 0 }).toEqual({ ...alone, id: 0 })
        expect(created.name).toBe("lone \ufffd surrogate")
        expect(created.groupe).toBe(asked.groupe)
        expect(created.duree).toBe(Number.MAX_SAFE_INTEGER)
      }
    }))

  it.effect("a create inside a transaction is its own statement, and rolls back with it", () =>
    Effect.gen(function*() {
      const { athletes, sessions, sql } = yield* people
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        yield* Effect.forEach(
          [session("rolled back 1", [athletes[0]!]), session("rolled back 2", [])],
          (input) => sessions.create(input),
          { concurrency: "unbounded" }
        )
        return yield* Effect.fail("undone")
      })).pipe(Effect.flip)
      expect(outcome).toBe("undone")
      const kept = yield* sql`SELECT 1 FROM sessions WHERE name LIKE 'rolled back %'`
      expect(kept).toHaveLength(0)
    }))
})

onEachDatabase("Session updates of concurrent requests gathered", (it) => {
  /** Athletes and sessions of the test's own, each session with the first athlete. */
  const sessionsAndAthletes = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const athletes = (yield* sql<{ id: string | number }>`INSERT INTO athletes (name)
      SELECT 'updated athlete ' || n FROM generate_series(1, 4) AS n RETURNING id`).map((row) =>
      Number(row.id) as AthleteId
    )
    const sessions = yield* SessionRepository
    const created = yield* Effect.forEach([1, 2, 3, 4], (n) =>
      sessions.create(
        new SessionCreate({
          id: null,
          name: `updated ${n}`,
          isRecurrent: false,
          creneau: "2031-06-01T10:00:00" as LocalDateTime,
          duree: 60,
          groupe: null,
          coachId: null,
          athleteIds: [athletes[0]!],
          activiteIds: []
        })
      ))
    return { sql, sessions, athletes, ids: created.map((session) => session.id) }
  })
  const eventsOf = (sql: SqlClient.SqlClient, ids: ReadonlyArray<number>) =>
    sql<{ session: string | number; data: { duree: number; previousDuree: number } }>`SELECT session_id AS session, data
      FROM attendance_events WHERE type = 'sessionChanged' AND session_id = ANY(${ids.map(BigInt)}::bigint[])
      ORDER BY id`

  it.effect("updates asked together are one transaction: one lock, each its own statement, in the order asked", () =>
    Effect.gen(function*() {
      const { athletes, ids, sessions, sql } = yield* sessionsAndAthletes
      const asked = [
        { id: ids[2]!, input: { duree: 70, athleteIds: [athletes[1]!, athletes[2]!] } },
        { id: ids[0]!, input: { athleteIds: [] } },
        { id: ids[2]!, input: { duree: 80 } },
        { id: ids[1]!, input: { duree: 90, athleteIds: [athletes[3]!, athletes[3]!] } }
      ]
      const counted = yield* countStatements(
        Effect.forEach(asked, ({ id, input }) => sessions.update(id, input), { concurrency: "unbounded" })
      )
      // In one transaction: the lock of the three sessions, one statement per update.
      expect(counted.statements).toHaveLength(1 + asked.length)
      expect(counted.statements.filter((text) => text.includes("FOR UPDATE"))).toHaveLength(1)
      expect(counted.result.map((session) => [session.id, session.duree, session.athleteIds])).toEqual([
        [ids[2], 70, [athletes[1]!, athletes[2]!].sort((a, b) => a - b)],
        [ids[0], 60, []],
        [ids[2], 80, [athletes[1]!, athletes[2]!].sort((a, b) => a - b)],
        [ids[1], 90, [athletes[3]]]
      ])
      for (const id of ids.slice(0, 3)) {
        const stored = yield* sessions.findById(id)
        expect(stored).toEqual(Option.some(counted.result.findLast((session) => session.id === id)))
      }
      // Each event tells the session as its update found it: the second update of a session, what the first left.
      const events = yield* eventsOf(sql, ids)
      expect(events.map((event) => [Number(event.session), event.data.previousDuree, event.data.duree])).toEqual([
        [ids[2], 60, 70],
        [ids[0], 60, 60],
        [ids[2], 70, 80],
        [ids[1], 60, 90]
      ])
    }))

  it.effect("more updates in a turn than one transaction takes are several transactions, each answered", () =>
    Effect.gen(function*() {
      const { ids, sessions } = yield* sessionsAndAthletes
      const asked = Array.from({ length: updatesPerTransaction * 2 + 1 }, (_, index) => ({
        id: ids[index % ids.length]!,
        duree: 100 + index
      }))
      const counted = yield* countStatements(
        Effect.forEach(asked, ({ duree, id }) => sessions.update(id, { duree }), { concurrency: "unbounded" })
      )
      expect(counted.result.map((session) => [session.id, session.duree])).toEqual(
        asked.map(({ duree, id }) => [id, duree])
      )
      expect(counted.statements.filter((text) => text.includes("FOR UPDATE"))).toHaveLength(3)
      // The transactions of a turn are concurrent requests' writes: each session keeps one of its updates.
      for (const id of ids) {
        const stored = Option.getOrThrow(yield* sessions.findById(id))
        expect(asked.filter((update) => update.id === id).map((update) => update.duree)).toContain(stored.duree)
      }
    }))

  it.effect("a session not found answers its own update 404; the others are written", () =>
    Effect.gen(function*() {
      const { ids, sessions } = yield* sessionsAndAthletes
      const missing = SessionId.make(ids.at(-1)! + 1000)
      const results = yield* Effect.forEach(
        [ids[0]!, missing, ids[1]!],
        (id) => Effect.result(sessions.update(id, { duree: 45 })),
        { concurrency: "unbounded" }
      )
      expect(results.map((result) => result._tag)).toEqual(["Success", "Failure", "Success"])
      expect(results[1]).toEqual(Result.fail(new EntityNotFound({ entity: "Session", id: missing })))
      for (const id of [ids[0]!, ids[1]!]) {
        expect(Option.map(yield* sessions.findById(id), (session) => session.duree)).toEqual(Option.some(45))
      }
    }))

  it.effect("an unknown athlete fails its own update alone, named; the others are written", () =>
    Effect.gen(function*() {
      const { athletes, ids, sessions, sql } = yield* sessionsAndAthletes
      const unknown = (athletes.at(-1)! + 1000) as AthleteId
      const before = (yield* eventsOf(sql, ids)).length
      const results = yield* Effect.forEach(
        [
          { id: ids[0]!, input: { duree: 31, athleteIds: [athletes[1]!] } },
          { id: ids[1]!, input: { duree: 32, athleteIds: [athletes[2]!, unknown] } },
          { id: ids[2]!, input: { duree: 33 } }
        ],
        ({ id, input }) => Effect.result(sessions.update(id, input)),
        { concurrency: "unbounded" }
      )
      expect(results.map((result) => result._tag)).toEqual(["Success", "Failure", "Success"])
      expect(results[1]).toEqual(
        Result.fail(new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [unknown] }))
      )
      const stored = yield* Effect.forEach(ids.slice(0, 3), (id) => sessions.findById(id))
      expect(stored.map((session) => Option.map(session, ({ athleteIds, duree }) => [duree, athleteIds]))).toEqual([
        Option.some([31, [athletes[1]]]),
        Option.some([60, [athletes[0]]]),
        Option.some([33, [athletes[0]]])
      ])
      expect((yield* eventsOf(sql, ids)).length).toBe(before + 2)
    }))

  it.effect("updates exchanging activities in transactions beside each other wait on each other, never deadlock", () =>
    Effect.gen(function*() {
      const { sessions, sql } = yield* sessionsAndAthletes
      const activities = yield* ActivityRepository
      const newSession = (name: string) =>
        Effect.map(
          sessions.create(
            new SessionCreate({
              id: null,
              name,
              isRecurrent: false,
              creneau: "2031-06-02T10:00:00" as LocalDateTime,
              duree: 60,
              groupe: null,
              coachId: null,
              athleteIds: [],
              activiteIds: []
            })
          ),
          (session) => session.id
        )
      const activityIn = (session: SessionId, name: string) =>
        activities.create(
          new ActivityWrite({ name, theme: "exchanged", duree: 5, dataActivite: [], sessionId: session })
        )
      // Each round: session a takes b's activity while b takes a's, the two updates in two transactions
      // of the same turn (the fillers make the first full). Each locks its session, then the activities
      // it lists or holds in id order: before, each could hold one activity and wait for the other's.
      // A deadlock needs the two transactions' statements to interleave: rounds enough to meet one.
      for (let round = 0; round < 150; round++) {
        const [a, b, c] = [yield* newSession("a"), yield* newSession("b"), yield* newSession("c")]
        const x = yield* activityIn(a, `x ${round}`)
        const y = yield* activityIn(b, `y ${round}`)
        const exits = yield* Effect.forEach(
          [
            sessions.update(a, { activiteIds: [y.id] }),
            ...Array.from({ length: updatesPerTransaction - 1 }, (_, n) => sessions.update(c, { duree: 10 + n })),
            sessions.update(b, { activiteIds: [x.id] })
          ],
          Effect.exit,
          { concurrency: "unbounded" }
        )
        for (const exit of exits) expect(Exit.isSuccess(exit), String(exit)).toBe(true)
        // Whichever went first, each session ends with the activity it asked for.
        const held = yield* sql<
          { id: string | number; session: string | number | null }
        >`SELECT id, session_id AS session
          FROM activities WHERE id IN (${x.id}, ${y.id}) ORDER BY id`
        expect(held.map((row) => [Number(row.id), Number(row.session)])).toEqual([[x.id, b], [y.id, a]])
      }
    }))

  it.effect("updates of several users asked together name each their own, for the session and its athletes", () =>
    Effect.gen(function*() {
      const { athletes, ids, sessions, sql } = yield* sessionsAndAthletes
      const coach = { userId: 5, role: "COACH", requestId: "req-update-rows-coach" }
      const admin = { userId: 6, role: "ADMIN", requestId: "req-update-rows-admin" }
      yield* Effect.forEach(
        [[ids[0]!, coach], [ids[1]!, admin], [ids[2]!, undefined]] as const,
        ([id, actor]) => {
          const update = sessions.update(id, { duree: 25, athleteIds: [athletes[1]!] })
          return actor === undefined ? update : update.pipe(Effect.provideService(AuditActor, actor))
        },
        { concurrency: "unbounded" }
      )
      const entries = yield* sql<
        { type: string; operation: string; session: string; request_id: string | null }
      >`SELECT record_type AS type, operation, COALESCE(record_ids ->> 'session_id', record_ids ->> 'id') AS session,
          request_id
        FROM audit_entries
        WHERE record_type IN ('sessions', 'session_athletes') AND operation <> 'insert'
          OR (record_type = 'session_athletes' AND (record_ids ->> 'athlete_id')::bigint = ${athletes[1]!})
        ORDER BY id`
      const of = (id: number) =>
        entries.filter((entry) => Number(entry.session) === id).map((entry) =>
          `${entry.type} ${entry.operation} ${entry.request_id}`
        ).sort()
      expect(of(ids[0]!)).toEqual([
        "session_athletes delete req-update-rows-coach",
        "session_athletes insert req-update-rows-coach",
        "sessions update req-update-rows-coach"
      ])
      expect(of(ids[1]!)).toEqual([
        "session_athletes delete req-update-rows-admin",
        "session_athletes insert req-update-rows-admin",
        "sessions update req-update-rows-admin"
      ])
      expect(of(ids[2]!)).toEqual([
        "session_athletes delete null",
        "session_athletes insert null",
        "sessions update null"
      ])
    }))
})
