import {
  ActivityId,
  ActivityRepository,
  AthleteCreate,
  AthleteId,
  AthleteRepository,
  AuditActor,
  AuthService,
  type LocalDateTime,
  PlannedSessionCreate,
  CoachCreate,
  CoachRepository,
  PasswordHasher,
  SeriesRepository,
  SessionRepository,
  TokenSigner,
  UserRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DatabaseSharing } from "../src/database/DatabaseSharing.ts"
import { CredentialsCache } from "../src/users/CredentialsCache.ts"
import { sessionsPerPage } from "../src/sessions/SessionRepositoryLive.ts"
import { countStatements } from "../src/testing/index.ts"
import { newActivity, newSession, newUser } from "../../core/test/repositoryContract/fixtures.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

const Ids = Schema.Array(Schema.Struct({ id: Schema.Int }))

/** Seeds in bulk with plain SQL: this test is about the cost of reading, not of writing. */
const seedAthletes = (count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`INSERT INTO athletes (name)
      SELECT 'athlete ' || n FROM generate_series(1, ${count}) AS n RETURNING id::int AS id`
    return (yield* Schema.decodeUnknownEffect(Ids)(rows)).map((row) => AthleteId.make(row.id))
  })

const seedActivities = (count: number, sessionId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`INSERT INTO activities (name, theme, session_id)
      SELECT 'activity ' || n, 'bulk', ${sessionId} FROM generate_series(1, ${count}) AS n RETURNING id::int AS id`
    return (yield* Schema.decodeUnknownEffect(Ids)(rows)).map((row) => ActivityId.make(row.id))
  })

/** The login use-case on this adapter's ports; the fixtures' hash of a user's password is `hash-of-<password>`. */
const AuthOnTheseRepositories = AuthService.layer.pipe(Layer.provide(Layer.mergeAll(
  Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (password) => Effect.succeed(Redacted.make(`hash-of-${Redacted.value(password)}`)),
      verify: (password, hash) => Effect.succeed(Redacted.value(hash) === `hash-of-${Redacted.value(password)}`)
    })
  ),
  Layer.succeed(
    TokenSigner,
    TokenSigner.of({ sign: () => Effect.succeed("a-token"), verify: () => Effect.die("not used") })
  )
)))

onEachDatabase("Query counts", (it) => {
  it.effect("reading a session costs one query whether it has 1 or 500 athletes and activities", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionRepository
      const athlete = yield* (yield* AthleteRepository).create(
        new AthleteCreate({ id: null, name: "solo", categorie: null, niveau: null })
      )
      const holding = yield* sessions.create(newSession({ name: "holding" }))
      const activity = yield* (yield* ActivityRepository).create(newActivity(holding.id, "solo"))
      const small = yield* sessions.create(
        newSession({ name: "small", athleteIds: [athlete.id], activiteIds: [activity.id] })
      )

      const smallRead = yield* countStatements(sessions.findById(small.id))
      const smallList = yield* countStatements(sessions.list())

      const manyAthletes = yield* seedAthletes(500)
      const manyActivities = yield* seedActivities(500, holding.id)
      const large = yield* sessions.create(
        newSession({ name: "large", athleteIds: manyAthletes, activiteIds: manyActivities })
      )

      const largeRead = yield* countStatements(sessions.findById(large.id))
      const largeList = yield* countStatements(sessions.list())

      expect(Option.getOrThrow(smallRead.result).athleteIds).toEqual([athlete.id])
      expect(Option.getOrThrow(largeRead.result).athleteIds).toHaveLength(500)
      expect(Option.getOrThrow(largeRead.result).activiteIds).toEqual(manyActivities)
      expect(largeList.result.find((session) => session.id === large.id)?.athleteIds).toEqual(manyAthletes)

      expect(smallRead.statements).toHaveLength(1)
      expect(largeRead.statements).toHaveLength(smallRead.statements.length)
      expect(smallList.statements).toHaveLength(1)
      expect(largeList.statements).toHaveLength(smallList.statements.length)
    }))

  it.effect("listing every session costs one statement per page of sessions, whatever their athletes and activities", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      yield* sql`INSERT INTO sessions (name) SELECT 'paged ' || n FROM generate_series(1, ${
        2 * sessionsPerPage + 10
      }) AS n`
      const total = (yield* sessions.list()).length
      const listed = yield* countStatements(sessions.list())
      expect(listed.result.map((session) => session.id)).toEqual(listed.result.map((s) => s.id).sort((a, b) => a - b))
      expect(new Set(listed.result.map((session) => session.id)).size).toBe(total)
      // The last page is the one shorter than a page (possibly empty).
      expect(listed.statements).toHaveLength(Math.floor(total / sessionsPerPage) + 1)
    }))

  it.effect("the credentials lookup of an authenticated request costs one query, then none while cached; a write clears it", () =>
    Effect.gen(function*() {
      const users = yield* UserRepository
      const cache = yield* CredentialsCache
      const { otherProcessesWrite } = yield* DatabaseSharing
      // On a PostgreSQL server the cache is on once its LISTEN is confirmed, a few ms after start.
      while (!(yield* cache.active)) yield* Effect.sleep("5 millis")
      const user = yield* users.create(newUser("counted", "COACH"))

      const cold = yield* countStatements(users.findCredentialsById(user.id))
      const cached = yield* countStatements(users.findCredentialsById(user.id))
      const write = yield* countStatements(users.update(user.id, { role: "ATHLETE", link: "create" }))
      const afterWrite = yield* countStatements(users.findCredentialsById(user.id))

      expect(cold.statements).toHaveLength(1)
      expect(cached.statements).toHaveLength(0)
      expect(afterWrite.statements).toHaveLength(1)
      expect(Option.getOrThrow(afterWrite.result).user.role).toBe("ATHLETE")
      // The other instances hear of it through a notification sent in the write's transaction;
      // on the embedded database there are none to tell.
      const notifies = write.statements.filter((statement) => statement.includes("pg_notify"))
      expect(notifies).toHaveLength(otherProcessesWrite ? 1 : 0)
    }))

  it.effect("a login costs three statements, succeeding or failing (admission, credentials, then success or clean-up), and one when it must wait", () =>
    Effect.gen(function*() {
      yield* (yield* UserRepository).create(newUser("counted-login", "COACH"))
      const login = (password: string) =>
        AuthService.use((auth) =>
          auth.login({ name: "counted-login", password: Redacted.make(password), clientAddress: "192.0.2.1" })
        ).pipe(
          Effect.as("ok"),
          Effect.catchTags({ Unauthenticated: () => Effect.succeed("401"), RateLimited: () => Effect.succeed("429") })
        )
      const success = yield* countStatements(login("counted-login"))
      const failure = yield* countStatements(login("wrong"))
      for (let i = 0; i < 4; i++) yield* login("wrong")
      const waiting = yield* countStatements(login("counted-login"))
      expect([success.result, failure.result, waiting.result]).toEqual(["ok", "401", "429"])
      expect(success.statements).toHaveLength(3)
      expect(failure.statements).toHaveLength(3)
      expect(waiting.statements).toHaveLength(1)
    }).pipe(Effect.provide(AuthOnTheseRepositories)))

  // Counted on the client: a write's transaction adds its BEGIN and COMMIT, two more round trips.
  it.effect("a session create costs one statement (the session written with its links and its event, the database checking its references), an update listing activities three (the lock of the session; the lock of the activities it lists or holds, in id order; then the session written with its links and its event, the database checking its references), an activity create one (its row written with its event), for 1 or 50 athletes and activities; a create refused for an unknown id two (the insert, then the check that names it), an update three (the lock, the write, then the lock with the check that names it)", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionRepository
      const activities = yield* ActivityRepository
      const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "counting" }))
      const holding = yield* sessions.create(newSession({ name: "holding" }))
      const athletes = yield* seedAthletes(50)
      const moving = yield* seedActivities(50, holding.id)

      const small = yield* countStatements(
        sessions.create(newSession({ name: "small", coachId: coach.id, athleteIds: athletes.slice(0, 1) }))
      )
      const large = yield* countStatements(sessions.create(
        newSession({ name: "large", coachId: coach.id, athleteIds: athletes, activiteIds: moving })
      ))
      const updated = yield* countStatements(sessions.update(small.result.id, {
        duree: 45,
        athleteIds: athletes.slice(10, 20),
        activiteIds: moving.slice(0, 5)
      }))
      const activity = yield* countStatements(activities.create(newActivity(small.result.id, "counted")))
      const refused = yield* countStatements(
        Effect.flip(sessions.create(newSession({ name: "refused", athleteIds: [AthleteId.make(999_999)] })))
      )
      const refusedUpdate = yield* countStatements(
        Effect.flip(sessions.update(small.result.id, { athleteIds: [athletes[0]!, AthleteId.make(999_998)] }))
      )

      expect(large.result.athleteIds).toEqual(athletes)
      expect(large.result.activiteIds).toEqual(moving)
      expect(updated.result.athleteIds).toEqual(athletes.slice(10, 20))
      expect(updated.result.activiteIds).toEqual(moving.slice(0, 5))
      expect(updated.result.duree).toBe(45)
      expect(refused.result._tag).toBe("UnknownReferences")
      expect(refusedUpdate.result).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds", ids: [999_998] })

      // A session write, and an activity create, tell their event to the outbox in their own statement
      // (issue 42 item 6, decisions 0317 and 0318).
      expect(small.statements).toHaveLength(1)
      expect(large.statements).toHaveLength(1)
      expect(updated.statements).toHaveLength(3)
      expect(activity.statements).toHaveLength(1)
      expect(refused.statements).toHaveLength(2)
      expect(refusedUpdate.statements).toHaveLength(3)
    }))

  it.effect("a planned session create costs the seed create's statement and its bookings' one, and answers the session without reading it back", () =>
    Effect.gen(function*() {
      const athletes = yield* seedAthletes(10)
      const planned = yield* countStatements((yield* SeriesRepository).createSession(
        new PlannedSessionCreate({
          name: "planned",
          groupe: null,
          coachId: null,
          athleteIds: athletes,
          duree: 60,
          creneau: "2036-04-01T18:00:00" as LocalDateTime
        })
      ))
      expect(planned.result).toEqual(Option.getOrThrow(yield* (yield* SessionRepository).findById(planned.result.id)))
      expect(planned.statements).toHaveLength(2)
    }))

  it.effect("a session create and update done for a user cost no statement more: the write names the user to the audit trail", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      const [athlete] = yield* seedAthletes(1)
      const asCoach = Effect.provideService(AuditActor, { userId: 8, role: "COACH", requestId: "req-counted" })
      const created = yield* countStatements(sessions.create(newSession({ name: "named", athleteIds: [athlete!] })))
        .pipe(asCoach)
      const updated = yield* countStatements(sessions.update(created.result.id, { duree: 50, athleteIds: [] }))
        .pipe(asCoach)
      expect(created.statements).toHaveLength(1)
      expect(updated.statements).toHaveLength(2)
      const entries = yield* sql<{ actor: string; record: string; operation: string }>`SELECT
          actor_user_id::text || ' ' || actor_role AS actor, record_type AS record, operation
        FROM audit_entries WHERE request_id = 'req-counted' ORDER BY id`
      expect(entries.map((e) => `${e.actor} ${e.operation} ${e.record}`).sort()).toEqual([
        "8 COACH delete session_athletes",
        "8 COACH insert session_athletes",
        "8 COACH insert sessions",
        "8 COACH update sessions"
      ])
    }))

  it.effect("an update refused for an unknown athlete inside a caller's transaction (an idempotency key's) names it, keeps nothing, and leaves the caller's transaction usable", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      const [kept, other] = yield* seedAthletes(2)
      const session = yield* sessions.create(newSession({ name: "in a caller's", athleteIds: [kept!] }))
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        const refused = yield* Effect.flip(
          sessions.update(session.id, { duree: 5, athleteIds: [other!, AthleteId.make(999_997)] })
        )
        // The caller's transaction goes on: the refused write was rolled back to its savepoint.
        const updated = yield* sessions.update(session.id, { duree: 7, athleteIds: [other!] })
        return { refused, updated }
      }))
      expect(outcome.refused).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds", ids: [999_997] })
      expect(outcome.updated).toMatchObject({ duree: 7, athleteIds: [other] })
      expect(yield* sessions.findById(session.id)).toEqual(Option.some(outcome.updated))
    }))

  it.effect("the counter sees every statement, including those inside a transaction", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionRepository
      const [athlete] = yield* seedAthletes(1)
      const session = yield* sessions.create(newSession({ name: "counted" }))
      const counted = yield* countStatements(sessions.update(session.id, { athleteIds: [athlete!] }))
      // The lock of the session and the write, both inside the update's transaction.
      expect(counted.statements.length).toBeGreaterThanOrEqual(2)
      expect(counted.statements.some((statement) => statement.includes(`FROM "sessions"`))).toBe(true)
      expect(counted.statements.some((statement) => statement.includes(`INSERT INTO session_athletes`))).toBe(true)
    }))
})
