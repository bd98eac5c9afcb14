import {
  AthleteCreate,
  AthleteRepository,
  AuditActor,
  type AuditEntry,
  AuditRepository,
  SessionCreate,
  SessionRepository,
  TaskCreate,
  TaskRepository,
  UserRepository
} from "@club/core"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newUser } from "./fixtures.ts"

const asAdmin = (requestId: string) => Effect.provideService(AuditActor, { userId: 7, role: "ADMIN", requestId })

/** The entries of one request (null: the server's own), oldest first, read through the port. */
const entriesOf = (requestId: string | null) =>
  Effect.map(
    Effect.flatMap(Effect.service(AuditRepository), (audit) => audit.read({}, { before: null, limit: 10_000 })),
    (entries): ReadonlyArray<AuditEntry> => entries.filter((e) => e.requestId === requestId).reverse()
  )

/**
 * What the audit trail records of a write (issue 43 item 4, decisions 0240 and 0303), whatever keeps
 * the data: the database's trigger or the in-memory store's journal. What only the database keeps
 * (append-only entries, the retention floor) is in packages/postgres-adapter/test/auditTrail.test.ts.
 */
export const auditTrailContract: ContractSuite = {
  title: "The audit trail",
  tests: (it) => {
    it.effect("a user's creation, change and deletion each leave one entry naming the actor and the request", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* users.create(newUser("audited-user", "COACH")).pipe(asAdmin("req-create"))
        yield* users.update(user.id, { name: "audited-renamed" }).pipe(asAdmin("req-update"))
        yield* users.delete(user.id).pipe(asAdmin("req-delete"))

        const created = yield* entriesOf("req-create")
        const userEntry = created.find((e) => e.recordType === "users")!
        assert.strictEqual(userEntry.operation, "insert")
        assert.deepStrictEqual(userEntry.actor, { userId: 7, role: "ADMIN" })
        assert.strictEqual(Number(userEntry.records["id"]), user.id)
        assert.strictEqual(userEntry.changes["name"], "audited-user")
        // The hash is named, never copied.
        assert.strictEqual(userEntry.changes["password_hash"], "(withheld)")
        assert.notInclude(JSON.stringify(created), "hash-of-audited-user")
        // The coach record made for the user, in the same write.
        assert.isTrue(created.some((e) => e.recordType === "coaches" && e.operation === "insert"))

        const rename = (yield* entriesOf("req-update")).filter((e) => e.recordType === "users")
        assert.strictEqual(rename.length, 1)
        assert.strictEqual(rename[0]!.operation, "update")
        assert.deepStrictEqual(rename[0]!.changes, { name: "audited-renamed" })

        const deleted = (yield* entriesOf("req-delete")).filter((e) => e.recordType === "users")
        assert.strictEqual(deleted.length, 1)
        assert.strictEqual(deleted[0]!.operation, "delete")
        assert.strictEqual(Number(deleted[0]!.records["id"]), user.id)
        assert.deepStrictEqual(deleted[0]!.changes, {})
      }))

    it.effect("an athlete's creation is one entry; a write refused leaves none", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const users = yield* UserRepository
        const athlete = yield* athletes.create(
          new AthleteCreate({ id: null, name: "Audited Athlete", categorie: null, niveau: null })
        ).pipe(asAdmin("req-athlete"))
        const entries = yield* entriesOf("req-athlete")
        assert.strictEqual(entries.length, 1)
        assert.strictEqual(entries[0]!.recordType, "athletes")
        assert.strictEqual(Number(entries[0]!.records["id"]), athlete.id)
        assert.deepStrictEqual(entries[0]!.changes, {
          id: athlete.id,
          name: "Audited Athlete",
          categorie: null,
          niveau: null
        })

        yield* users.create(newUser("audited-twice", "COACH")).pipe(asAdmin("req-first"))
        // The same name again: refused, and nothing of it recorded.
        yield* Effect.flip(users.create(newUser("audited-twice", "COACH")).pipe(asAdmin("req-refused")))
        assert.strictEqual((yield* entriesOf("req-refused")).length, 0)
      }))

    it.effect("a session's athletes are rows of their own: one entry each, naming the session and the athlete", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const sessions = yield* SessionRepository
        const athlete = yield* athletes.create(
          new AthleteCreate({ id: null, name: "Audited Member", categorie: null, niveau: null })
        )
        const session = yield* sessions.create(
          new SessionCreate({
            id: null,
            name: "Audited Session",
            isRecurrent: false,
            creneau: null,
            duree: null,
            groupe: null,
            coachId: null,
            athleteIds: [athlete.id],
            activiteIds: []
          })
        ).pipe(asAdmin("req-session"))
        const entries = yield* entriesOf("req-session")
        const sessionEntry = entries.find((e) => e.recordType === "sessions")!
        assert.strictEqual(Number(sessionEntry.records["id"]), session.id)
        assert.strictEqual(sessionEntry.changes["name"], "Audited Session")
        const member = entries.filter((e) => e.recordType === "session_athletes")
        assert.strictEqual(member.length, 1)
        assert.deepStrictEqual(
          { session: Number(member[0]!.records["session_id"]), athlete: Number(member[0]!.records["athlete_id"]) },
          { session: session.id, athlete: athlete.id }
        )
      }))

    it.effect("a task's creation and deletion name the actor and the task's id", () =>
      Effect.gen(function*() {
        const tasks = yield* TaskRepository
        const task = yield* tasks.create(new TaskCreate({ title: "audited task", description: "" })).pipe(
          asAdmin("req-task")
        )
        yield* tasks.delete(task.id).pipe(asAdmin("req-task-delete"))
        const [created] = yield* entriesOf("req-task")
        assert.strictEqual(created!.recordType, "tasks")
        assert.strictEqual(created!.records["id"], task.id)
        assert.strictEqual(created!.changes["title"], "audited task")
        const [deleted] = yield* entriesOf("req-task-delete")
        assert.strictEqual(deleted!.operation, "delete")
        assert.deepStrictEqual(deleted!.actor, { userId: 7, role: "ADMIN" })
      }))

    it.effect("the server's own writes are the system's: no user, no request", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* users.create(newUser("audited-by-system", "COACH"))
        const entries = (yield* entriesOf(null)).filter((e) =>
          e.recordType === "users" && Number(e.records["id"]) === user.id
        )
        assert.strictEqual(entries.length, 1)
        assert.strictEqual(entries[0]!.actor, null)
      }))
  }
}
