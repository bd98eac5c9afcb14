import {
  ActivityRepository,
  ActivityWrite,
  AthleteRepository,
  CoachRepository,
  Limits,
  SessionId,
  SessionRepository,
  UserRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Exit, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import boundIdentitySequences from "../src/migrations/0008_bound_identity_sequences.ts"
import { newUser } from "../../core/test/repositoryContract/fixtures.ts"
import { suppliedIdKinds } from "../../core/test/repositoryContract/suppliedIds.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * Ids: generated up to 2^53-1 (the database's own bound), supplied only up to 2^31-1 (core's
 * create inputs), and a create either answers its stored row or leaves nothing behind.
 */

const Counts = Schema.Array(Schema.Struct({ count: Schema.Int }))
const countOf = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* Schema.decodeUnknownEffect(Counts)(
      yield* sql`SELECT count(*)::int AS count FROM ${sql(table)}`
    )
    return row!.count
  })

/** The table of each kind whose create takes a supplied id. */
const tableOf: Record<string, string> = { Athlete: "athletes", Coach: "coaches", Admin: "admins", Session: "sessions" }

/** The create of each such kind, with its table; `null` lets the database generate the id. */
const createsOf = Effect.map(
  suppliedIdKinds,
  (kinds) =>
    kinds.map((kind) => ({ table: tableOf[kind.entity]!, create: (id: number | null) => kind.create(id, "a") }))
)

onEachDatabase("Identity bounds", (it) => {
  it.effect("every identity column stops at 2^53-1", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = yield* sql<{ column: string; maximum: string }>`SELECT table_name || '.' || column_name AS column,
          identity_maximum AS maximum
        FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES' ORDER BY 1`
      // These at least; a table added later is checked by the loop below as well.
      expect(columns.map((c) => c.column)).toEqual(expect.arrayContaining([
        "activities.id",
        "admins.id",
        "athletes.id",
        "coaches.id",
        "login_failures.id",
        "sessions.id",
        "tasks.insertion_order",
        "users.id"
      ]))
      for (const column of columns) expect(column.maximum, column.column).toBe(String(Limits.maxGeneratedId))
    }))

  it.effect("a sequence at 2^53-1 refuses the next id: the create fails, nothing is stored, the rest still reads", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const { create, table } of yield* createsOf) {
        yield* create(null)
        const before = yield* countOf(table)
        yield* sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), ${String(Limits.maxGeneratedId)}::bigint)`
        expect(Exit.isFailure(yield* Effect.exit(create(null))), table).toBe(true)
        expect(yield* countOf(table), table).toBe(before)
      }
      expect((yield* (yield* AthleteRepository).list()).length).toBeGreaterThan(0)
      expect((yield* (yield* SessionRepository).list()).length).toBeGreaterThan(0)
    }))
})

onEachDatabase("A create whose stored row cannot be read back", (it) => {
  it.effect("leaves no row behind: the insert and its decode are one transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // What the database stores differs from what was asked, and cannot be answered: an id beyond
      // JavaScript's safe integers (as an unsafe id once was), a duration beyond them.
      yield* sql`CREATE FUNCTION spoil_id() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN NEW.id := 9007199254740993; RETURN NEW; END $$`
      yield* sql`CREATE FUNCTION spoil_duree() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN NEW.duree := 9007199254740993; RETURN NEW; END $$`
      for (const table of ["athletes", "coaches", "admins", "users"]) {
        yield* sql`CREATE TRIGGER spoil BEFORE INSERT ON ${sql(table)} FOR EACH ROW EXECUTE FUNCTION spoil_id()`
      }
      yield* sql`CREATE TRIGGER spoil BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION spoil_duree()`

      const users = yield* UserRepository
      const creates: ReadonlyArray<{ title: string; table: string; create: Effect.Effect<unknown, unknown> }> = [
        ...(yield* createsOf).flatMap(({ create, table }) => [
          { title: `${table} with a generated id`, table, create: create(null) },
          { title: `${table} with a supplied id`, table, create: create(77) }
        ]),
        {
          title: "users",
          table: "users",
          // The coach the user's link creates is stored as asked; only the user's own row is spoiled.
          create: Effect.andThen(sql`DROP TRIGGER spoil ON coaches`, users.create(newUser("spoiled", "COACH")))
        }
      ]
      for (const { create, table, title } of creates) {
        const before = yield* countOf(table)
        expect(Exit.isFailure(yield* Effect.exit(create)), title).toBe(true)
        expect(yield* countOf(table), title).toBe(before)
      }
      // The coach that the user's link "create" inserted went with it.
      expect(yield* countOf("coaches")).toBe(0)

      // An activity create commits by itself (decision 0318): the database refuses the row it could
      // not answer, and neither the activity nor its event is kept.
      yield* sql`DROP TRIGGER spoil ON sessions`
      const [session] = yield* sql<
        { id: number }
      >`INSERT INTO sessions (name) VALUES ('held') RETURNING id::float8 AS id`
      yield* sql`CREATE TRIGGER spoil BEFORE INSERT ON activities FOR EACH ROW EXECUTE FUNCTION spoil_duree()`
      const events = yield* countOf("attendance_events")
      const spoiled = (yield* ActivityRepository).create(
        new ActivityWrite({
          name: "a",
          theme: null,
          duree: 5,
          dataActivite: [],
          sessionId: SessionId.make(session!.id)
        })
      )
      expect(Exit.isFailure(yield* Effect.exit(spoiled))).toBe(true)
      expect(yield* countOf("activities")).toBe(0)
      expect(yield* countOf("attendance_events")).toBe(events)
    }))
})

onEachDatabase("Migration 0008 on a database the old rule broke", (it) => {
  it.effect("brings the sequences back, renumbers the unreadable rows with their references, then bounds them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The state the old rule left: no bound, a supplied id of 2^53-1, then rows with generated ids
      // beyond it (creates answered 500 but committed), one of them linked to a user and a session.
      for (const table of ["athletes", "coaches", "sessions"]) {
        yield* sql`ALTER TABLE ${sql(table)} ALTER COLUMN id SET MAXVALUE 9223372036854775807`
      }
      // Nor the bounds of a session's row (migration 0038, later than 0008).
      yield* sql`ALTER TABLE sessions DROP CONSTRAINT sessions_coach_id_answerable`
      yield* sql`INSERT INTO athletes (id, name) VALUES (5, 'kept'), (9007199254740991, 'supplied at the top')`
      yield* sql`SELECT setval(pg_get_serial_sequence('athletes', 'id'), 9007199254740991)`
      yield* sql`INSERT INTO athletes (name) VALUES ('lost one'), ('lost two')`
      yield* sql`INSERT INTO coaches (id, name) VALUES (9007199254740993, 'lost coach')`
      yield* sql`SELECT setval(pg_get_serial_sequence('coaches', 'id'), 9007199254740993)`
      yield* sql`SELECT setval(pg_get_serial_sequence('sessions', 'id'), 9007199254740995)`
      yield* sql`INSERT INTO sessions (id, name, coach_id) VALUES (3, 'kept session', 9007199254740993)`
      yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (3, 9007199254740992)`
      yield* sql`INSERT INTO users (name, role, password_hash, athlete_id) VALUES ('linked', 'ATHLETE', 'x', 9007199254740993)`

      yield* boundIdentitySequences

      const athletes = yield* (yield* AthleteRepository).list()
      expect(athletes.map((athlete) => [athlete.id, athlete.name])).toEqual([
        [5, "kept"],
        [6, "lost one"],
        [7, "lost two"],
        [9007199254740991, "supplied at the top"]
      ])
      expect((yield* (yield* CoachRepository).list()).map((coach) => [coach.id, coach.name])).toEqual([[
        1,
        "lost coach"
      ]])
      const session = Option.getOrThrow(yield* (yield* SessionRepository).findById(SessionId.make(3)))
      expect(session).toMatchObject({ coachId: 1, athleteIds: [6] })
      expect(Option.getOrThrow(yield* (yield* UserRepository).findCredentialsByName("linked")).user.athleteId).toBe(7)

      // Generation goes on from the ids in use, within the bound.
      for (const { create, table } of yield* createsOf) {
        const record = yield* create(null)
        expect(record.id, table).toBeLessThan(Limits.maxSuppliedId)
      }
      const [bound] = yield* sql<{ maximum: string }>`SELECT identity_maximum AS maximum FROM information_schema.columns
        WHERE table_name = 'athletes' AND column_name = 'id'`
      expect(bound!.maximum).toBe(String(Limits.maxGeneratedId))
    }))
})
