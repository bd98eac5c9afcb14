import {
  ActivityRepository,
  AthleteId,
  AuditActor,
  AuditRepository,
  RetentionRepository,
  SessionRepository,
  TaskCreate,
  TaskRepository,
  UserRepository
} from "@club/core"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { newActivity, newSession, newUser } from "../../core/test/repositoryContract/fixtures.ts"
import { auditTrailContract } from "../../core/test/repositoryContract/audit.ts"
import { comparedAuditColumns, withAuditFunction0037Beside } from "./support/auditFunction0037Beside.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

// What is recorded, as the in-memory store records it too.
onEachDatabaseContract(auditTrailContract)

interface EntryRow {
  readonly actor_user_id: string | number | null
  readonly actor_role: string | null
  readonly request_id: string | null
  readonly record_type: string
  readonly operation: string
  readonly record_ids: Record<string, unknown>
  readonly subject_user_id: string | number | null
  readonly changes: Record<string, unknown>
}

const asAdmin = (requestId: string) => Effect.provideService(AuditActor, { userId: 7, role: "ADMIN", requestId })
const asCoach = (requestId: string) => Effect.provideService(AuditActor, { userId: 8, role: "COACH", requestId })

const entriesOf = (requestId: string | null) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<EntryRow>`SELECT actor_user_id, actor_role, request_id, record_type, operation, record_ids, subject_user_id,
      changes FROM audit_entries WHERE request_id IS NOT DISTINCT FROM ${requestId} ORDER BY id`
  )

/** What only the database keeps: entries append-only, the retention floor. */
onEachDatabase("The audit trail (migration 0032)", (it) => {
  it.effect("creations gathered in one turn name each their own actor, and the setting ends with the statement", () =>
    Effect.gen(function*() {
      const tasks = yield* TaskRepository
      const activities = yield* ActivityRepository
      const session = yield* (yield* SessionRepository).create(newSession())
      // Asked together: one turn of the event loop, gathered (decision 0316: one statement, each row naming its actor).
      const [adminTask, coachTask, , , adminActivity, coachActivity] = yield* Effect.all([
        tasks.create(new TaskCreate({ title: "the admin's", description: "" })).pipe(asAdmin("req-task-admin")),
        tasks.create(new TaskCreate({ title: "the coach's", description: "" })).pipe(asCoach("req-task-coach")),
        tasks.create(new TaskCreate({ title: "the coach's second", description: "" })).pipe(asCoach("req-task-coach")),
        tasks.create(new TaskCreate({ title: "the server's", description: "" })),
        activities.create(newActivity(session.id, "the admin's")).pipe(asAdmin("req-activity-admin")),
        activities.create(newActivity(session.id, "the coach's")).pipe(asCoach("req-activity-coach"))
      ], { concurrency: "unbounded" })

      const only = (rows: ReadonlyArray<EntryRow>, recordType: string) =>
        rows.filter((e) => e.record_type === recordType)
      const [ofAdmin] = only(yield* entriesOf("req-task-admin"), "tasks")
      assert.deepStrictEqual([Number(ofAdmin!.actor_user_id), ofAdmin!.actor_role], [7, "ADMIN"])
      assert.strictEqual(ofAdmin!.record_ids["id"], adminTask!.id)
      const ofCoach = only(yield* entriesOf("req-task-coach"), "tasks")
      assert.deepStrictEqual(ofCoach.map((e) => [Number(e.actor_user_id), e.actor_role]), [[8, "COACH"], [8, "COACH"]])
      assert.strictEqual(ofCoach[0]!.record_ids["id"], coachTask!.id)
      const [activityOfAdmin] = only(yield* entriesOf("req-activity-admin"), "activities")
      assert.strictEqual(Number(activityOfAdmin!.actor_user_id), 7)
      assert.strictEqual(Number(activityOfAdmin!.record_ids["id"]), adminActivity!.id)
      const [activityOfCoach] = only(yield* entriesOf("req-activity-coach"), "activities")
      assert.strictEqual(Number(activityOfCoach!.actor_user_id), 8)
      assert.strictEqual(Number(activityOfCoach!.record_ids["id"]), coachActivity!.id)

      // The server's own creation, and a write after the statements on the same connection (the
      // embedded database has one): no actor, the local setting did not outlive its statement.
      const ofServer = only(yield* entriesOf(null), "tasks")
      assert.deepStrictEqual(ofServer.map((e) => e.changes["title"]), ["the server's"])
      assert.isNull(ofServer[0]!.actor_user_id)
      yield* tasks.create(new TaskCreate({ title: "the server's next", description: "" }))
      const next = only(yield* entriesOf(null), "tasks").find((e) => e.changes["title"] === "the server's next")
      assert.isNull(next!.actor_user_id)
    }))

  it.effect("a statement writing many rows leaves one entry per row, each change paired with its own row", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Written once per statement (migration 0036): the triggers are statement triggers.
      const rowTriggers = yield* sql<{ name: string }>`SELECT t.tgname AS name FROM pg_trigger t
        JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid = 'tasks'::regclass AND p.proname LIKE 'audit_write%' AND t.tgtype & 1 = 1`
      assert.deepStrictEqual(rowTriggers, [])
      const ids = (yield* sql<{ id: string }>`WITH actor AS (SELECT set_config('club.audit_actor',
          '{"userId": 7, "role": "ADMIN", "requestId": "req-many"}', true))
        INSERT INTO tasks (title) SELECT 'many ' || n FROM actor, generate_series(1, 3) n
        ORDER BY n RETURNING id`).map((row) => row.id)
      // One statement changing two rows, one of them its key, and leaving the third as it was.
      const newKey = "00000000-0000-4000-8000-000000000036"
      yield* sql`WITH actor AS (SELECT set_config('club.audit_actor',
          '{"userId": 7, "role": "ADMIN", "requestId": "req-many"}', true))
        UPDATE tasks SET title = CASE WHEN id = ${ids[2]!} THEN title ELSE title || ' changed' END,
          id = CASE WHEN id = ${ids[1]!} THEN ${newKey}::uuid ELSE id END
        FROM actor WHERE id IN (${ids[0]!}, ${ids[1]!}, ${ids[2]!})`
      yield* sql`DELETE FROM tasks WHERE id IN (${ids[0]!}, ${newKey}::uuid)`
      const entries = yield* entriesOf("req-many")
      assert.deepStrictEqual(
        entries.map((e) => [e.operation, e.record_ids["id"], e.changes["title"] ?? null]),
        [
          ["insert", ids[0], "many 1"],
          ["insert", ids[1], "many 2"],
          ["insert", ids[2], "many 3"],
          ["update", ids[0], "many 1 changed"],
          ["update", newKey, "many 2 changed"]
        ]
      )
      assert.deepStrictEqual(Object.keys(entries[3]!.changes), ["title"])
      assert.deepStrictEqual(Object.keys(entries[4]!.changes).sort(), ["id", "title"])
      const deleted = yield* entriesOf(null).pipe(
        Effect.map((rows) =>
          rows.filter((e) =>
            e.record_type === "tasks" && e.operation === "delete" &&
            [ids[0], newKey].includes(e.record_ids["id"] as string)
          )
        )
      )
      assert.deepStrictEqual(deleted.map((e) => e.record_ids["id"]).sort(), [ids[0], newKey].sort())
    }))

  it.effect("migrations 0039's, 0041's and 0043's entries are 0037's, column for column, on every audited table and operation", () =>
    withAuditFunction0037Beside((triggers) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        assert.strictEqual(triggers, 19 * 3)
        const users = yield* UserRepository
        const tasks = yield* TaskRepository
        const coach = yield* users.create(newUser("same-coach", "COACH")).pipe(asAdmin("req-same-1"))
        const athlete = yield* users.create(newUser("same-athlete", "ATHLETE")).pipe(asAdmin("req-same-2"))
        yield* Effect.all([
          tasks.create(new TaskCreate({ title: "same a", description: "" })).pipe(asAdmin("req-same-3")),
          tasks.create(new TaskCreate({ title: "same b", description: "b" })).pipe(asCoach("req-same-4")),
          tasks.create(new TaskCreate({ title: "same c", description: "" }))
        ], { concurrency: "unbounded" })
        const [athleteUser] = yield* sql<{ athlete_id: string }>`SELECT athlete_id FROM users WHERE id = ${athlete.id}`
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT set_config('club.audit_actor', '{"userId": 7, "role": "ADMIN", "requestId": "req-same-5"}', true)`
          const [session] = yield* sql<{ id: string }>`INSERT INTO sessions (name) VALUES ('same') RETURNING id`
          yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (${session!.id}, ${
            athleteUser!.athlete_id
          })`
          yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, reason, state, replied_by)
          VALUES (${session!.id}, ${athleteUser!.athlete_id}, 'no', 'a private reason', 'declined', ${athlete.id})`
          yield* sql`UPDATE session_replies SET reason = 'another reason' WHERE session_id = ${session!.id}`
          yield* sql`UPDATE users SET password_hash = 'another hash', email = NULL WHERE id = ${coach.id}`
          yield* sql`UPDATE users SET name = name WHERE id = ${coach.id}`
          yield* sql`UPDATE tasks SET title = title || '!' WHERE false`
          yield* sql`DELETE FROM tasks WHERE false`
          // Row actors that do not match the rows written are not read.
          yield* sql`WITH a AS MATERIALIZED (SELECT set_config('club.audit_row_actors',
            '{"table": "tasks", "actors": [{"userId": 8, "role": "COACH", "requestId": "req-same-6"}]}', true))
          INSERT INTO tasks (title) SELECT 'same ' || n FROM a, generate_series(1, 2) n ORDER BY n`
          yield* sql`DELETE FROM sessions WHERE id = ${session!.id}`
          yield* sql`DELETE FROM tasks WHERE title LIKE 'same%'`
          yield* sql`DELETE FROM users WHERE id = ${athlete.id}`
        }))
        const columns = sql.literal(comparedAuditColumns)
        const now = yield* sql`SELECT ${columns} FROM audit_entries WHERE id > (SELECT max(id) FROM audit_entries)
        - (SELECT count(*) FROM audit_entries_0037) ORDER BY id`
        const before = yield* sql`SELECT ${columns} FROM audit_entries_0037 ORDER BY id`
        assert.isAtLeast(before.length, 20)
        assert.deepStrictEqual(now, before)
        assert.deepStrictEqual(
          [...new Set(before.map((e) => `${e["record_type"]} ${e["operation"]}`))].sort(),
          [
            "athletes insert",
            "coaches insert",
            "session_athletes delete",
            "session_athletes insert",
            "session_replies delete",
            "session_replies insert",
            "session_replies update",
            "sessions delete",
            "sessions insert",
            "tasks delete",
            "tasks insert",
            "users delete",
            "users insert",
            "users update"
          ]
        )
      })
    ))

  it.effect("entries are append-only for the service's own connection; only those past the floor may go", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* UserRepository
      yield* users.create(newUser("audited-kept", "COACH")).pipe(asAdmin("req-kept"))
      const kept = (yield* entriesOf("req-kept")).length
      const refused = (statement: Effect.Effect<unknown, unknown>) =>
        Effect.map(
          Effect.flip(statement),
          (error) => `${String(error)} ${String((error as { cause?: unknown }).cause)}`
        )
      assert.include(
        yield* refused(sql`UPDATE audit_entries SET actor_role = 'COACH' WHERE request_id = 'req-kept'`),
        "AuthorizationError"
      )
      assert.include(yield* refused(sql`DELETE FROM audit_entries WHERE request_id = 'req-kept'`), "AuthorizationError")
      yield* refused(sql`TRUNCATE audit_entries`)
      assert.strictEqual((yield* entriesOf("req-kept")).length, kept)
      // The floor may be raised, never lowered.
      yield* refused(sql`UPDATE audit_settings SET minimum_days = 1`)
      yield* refused(sql`DELETE FROM audit_settings`)
      const [floor] = yield* sql<{ minimum_days: number }>`SELECT minimum_days FROM audit_settings`
      assert.strictEqual(floor!.minimum_days, 30)
      // An entry past the floor goes.
      yield* sql`INSERT INTO audit_entries (at, record_type, operation, record_ids, changes)
        VALUES (now() - interval '400 days', 'users', 'insert', '{"id": 1}', '{}')`
      const gone = yield* sql`DELETE FROM audit_entries WHERE at < now() - interval '365 days' RETURNING id`
      assert.strictEqual(gone.length, 1)
    }))

  it.effect("an entry may be redacted (a person's erasure), never rewritten", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* UserRepository
      const user = yield* users.create(newUser("audited-erased", "ADMIN")).pipe(asAdmin("req-erased"))
      const refused = (statement: Effect.Effect<unknown, unknown>) =>
        Effect.map(
          Effect.flip(statement),
          (error) => `${String(error)} ${String((error as { cause?: unknown }).cause)}`
        )
      // Rewriting a value, adding a key or changing what was done: refused.
      for (
        const rewrite of [
          sql`UPDATE audit_entries SET changes = jsonb_set(changes, '{name}', '"someone else"') WHERE subject_user_id = ${user.id}`,
          sql`UPDATE audit_entries SET changes = changes || '{"role": "COACH"}' WHERE subject_user_id = ${user.id}`,
          sql`UPDATE audit_entries SET operation = 'delete' WHERE subject_user_id = ${user.id}`,
          sql`UPDATE audit_entries SET actor_user_id = 99 WHERE subject_user_id = ${user.id}`
        ]
      ) assert.include(yield* refused(rewrite), "AuthorizationError")
      // Blanking the person's values and the columns that name them: allowed.
      const redacted = yield* sql`UPDATE audit_entries
        SET changes = (SELECT jsonb_object_agg(key, CASE WHEN key IN ('name', 'email') THEN '"(erased)"'::jsonb ELSE value END)
          FROM jsonb_each(changes)),
          subject_user_id = NULL
        WHERE subject_user_id = ${user.id} RETURNING changes`
      assert.strictEqual(redacted.length, 1)
      assert.notInclude(JSON.stringify(redacted), "audited-erased")
    }))

  it.effect("the retention purge deletes entries past its period, never one younger than the floor", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const retention = yield* RetentionRepository
      yield* sql`INSERT INTO audit_entries (at, record_type, operation, record_ids, changes)
        SELECT now() - make_interval(days => d), 'purge_probe', 'insert', jsonb_build_object('id', d), '{}'
        FROM unnest(ARRAY[400, 100, 20]) AS d`
      // A period of one day: the floor (30 days) keeps the entry of 20 days.
      const now = Date.now()
      const deleted = yield* retention.purge("auditEntries", {
        epochMs: now - 86_400_000,
        clubDay: new Date(now).toISOString().slice(0, 10) as never
      }, 100)
      assert.isAtLeast(deleted, 2)
      const left = yield* sql<{ id: unknown }>`SELECT record_ids -> 'id' AS id FROM audit_entries
        WHERE record_type = 'purge_probe'`
      assert.deepStrictEqual(left.map((row) => Number(row.id)), [20])
    }))

  it.effect("a record's history is read through the index on its id: numbers by value, uuids as text, other keys never", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* AuditRepository
      // Entries of many records, so that the planner has an index worth using (migration 0042).
      yield* sql`INSERT INTO athletes (name) SELECT 'athlete ' || n FROM generate_series(1, 2000) AS n`
      const [athlete] = yield* sql<{ id: string }>`SELECT id::text AS id FROM athletes ORDER BY id DESC LIMIT 1`
      const task = (yield* (yield* TaskRepository).create(new TaskCreate({ title: "indexed", description: "" }))).id
      // Its athletes' entries hold `session_id` and `athlete_id`: the first equal to the session's id.
      const session = yield* (yield* SessionRepository).create(
        newSession({ athleteIds: [AthleteId.make(Number(athlete!.id))] })
      )
      yield* sql`ANALYZE audit_entries`
      const historyOf = (recordType: string, recordId: string) =>
        audit.read({ recordType, recordId }, { before: null, limit: 100 }).pipe(
          Effect.map((entries) => entries.map((e) => [e.operation, String(e.records["id"])]))
        )
      assert.deepStrictEqual(yield* historyOf("athletes", athlete!.id), [["insert", athlete!.id]])
      assert.deepStrictEqual(yield* historyOf("tasks", task), [["insert", task]])
      assert.deepStrictEqual(yield* historyOf("sessions", String(session.id)), [["insert", String(session.id)]])
      // A session's athletes are keyed by their session and athlete, not by an `id`: not its history.
      const ofThatId = (yield* audit.read({ recordId: String(session.id) }, { before: null, limit: 100 }))
        .map((e) => e.recordType)
      assert.include(ofThatId, "sessions")
      assert.notInclude(ofThatId, "session_athletes")
      const plan = (yield* sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT id FROM audit_entries
        WHERE record_ids ? 'id' AND record_ids -> 'id' = to_jsonb(${BigInt(athlete!.id)}::bigint)`)
        .map((row) => row["QUERY PLAN"]).join("\n")
      assert.include(plan, "audit_entries_record_id_idx")
      // An entry of a session's athletes has no `id`: it has no entry in the index.
      const [indexed] = yield* sql<{ partial: boolean }>`SELECT indpred IS NOT NULL AS partial
        FROM pg_index WHERE indexrelid = 'audit_entries_record_id_idx'::regclass`
      assert.isTrue(indexed!.partial)
    }))
})
