import { AthleteId, type CreneauRange, InvitationRepository, type LocalDateTime, SessionRepository } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { onEachDatabase } from "./support/onEachDatabase.ts"

const PlanCounts = Schema.Array(Schema.Struct({ generic: Schema.Int, custom: Schema.Int }))

/**
 * 1,000 sessions of 10 athletes among 200, one every three hours from 2030-01-01: an athlete is in
 * 50 sessions, a two-month range holds 471. A generic plan estimates a handful of sessions in any
 * range, walks the range and probes the memberships once per session; the custom plan hashes the
 * athlete's 50 memberships. Memberships are stored in session order, as sessions are created.
 */
const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO athletes (name) SELECT 'athlete ' || n FROM generate_series(1, 200) AS n`
  yield* sql`INSERT INTO sessions (name, creneau)
    SELECT 'session ' || n, timestamp '2030-01-01' + n * interval '3 hours' FROM generate_series(1, 1000) AS n`
  yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
    SELECT s.id, a.id
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM sessions) AS s
    CROSS JOIN generate_series(0, 9) AS k
    JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM athletes) AS a ON a.n = (s.n * 7 + k) % 200
    ORDER BY s.id, a.id`
  yield* sql`ANALYZE sessions`
  yield* sql`ANALYZE session_athletes`
  return yield* sql<{ id: number }>`SELECT id::int AS id FROM athletes ORDER BY id LIMIT 1`
})

/**
 * Issue 41's federation in small: 40 teams of 50 members (from before the month), each team with
 * 50 sessions in March 2032 (2,000 in the month), each session with two athletes of its own. An
 * athlete's sessions of the month are a dozen; the generic plan of `InvitationRepository.sessionsOf`
 * estimates a handful of sessions in any range and hashes every session of the month to find the
 * athlete's own (seen on the bench's federation after five calls).
 */
const seedTeams = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO athletes (name) SELECT 'member ' || n FROM generate_series(1, 2000) AS n`
  yield* sql`INSERT INTO groups (name, parent_id) VALUES ('Federation', NULL)`
  yield* sql`INSERT INTO groups (name, parent_id)
    SELECT 'Team ' || t, (SELECT id FROM groups WHERE parent_id IS NULL) FROM generate_series(0, 39) AS t`
  yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date)
    SELECT g.id, a.id, date '2032-01-01'
    FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM athletes) AS a
    JOIN groups g ON g.name = 'Team ' || (a.n % 40)`
  yield* sql`INSERT INTO sessions (name, creneau, groupe)
    SELECT 'training ' || n, timestamp '2032-03-01 08:00' + (n / 70) * interval '1 day' + (n % 13) * interval '1 hour',
      'Team ' || (n % 40)
    FROM generate_series(0, 1999) AS n`
  yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
    SELECT s.id, a.id
    FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM sessions) AS s
    CROSS JOIN generate_series(0, 1) AS k
    JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM athletes) AS a ON a.n = (s.n * 7 + k * 1001) % 2000`
  yield* sql`ANALYZE`
  return yield* sql<{ id: number }>`SELECT athlete_id::int AS id FROM session_athletes ORDER BY athlete_id LIMIT 1`
})

const Explained = Schema.Tuple([Schema.Struct({ plan: Schema.Array(Schema.Struct({ Plan: Schema.Unknown })) })])

/** The buffers the statement's plan touches under a plan cache mode, for the same values. */
const buffersUnder = (mode: "force_generic_plan" | "force_custom_plan", athlete: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`SET LOCAL plan_cache_mode = ${mode}`)
      yield* sql.unsafe(`PREPARE between_q (bigint, timestamp, timestamp) AS SELECT s.id, s.name FROM sessions s
        JOIN session_athletes sa ON sa.session_id = s.id
        WHERE sa.athlete_id = $1 AND s.creneau > $2 AND s.creneau < $3 ORDER BY s.id`)
      const rows = yield* sql.unsafe(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE between_q(${athlete}, '2030-01-01', '2030-03-01')`
      )
      yield* sql.unsafe(`DEALLOCATE between_q`)
      const [explained] = yield* Schema.decodeUnknownEffect(Explained)(
        rows.map((row) => ({ plan: Object.values(row)[0] }))
      )
      return (explained.plan[0]!.Plan as { "Shared Hit Blocks": number })["Shared Hit Blocks"]
    }))
  })

onEachDatabase("Plans stay good when repeated", (it) => {
  it.effect("an athlete's sessions in a range are planned for the values of each call, never from a generic plan", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      const [first] = yield* seed
      const athlete = AthleteId.make(first!.id)
      const range: CreneauRange = {
        after: "2030-01-01T00:00:00" as LocalDateTime,
        before: "2030-03-01T00:00:00" as LocalDateTime
      }
      const expected = yield* sql<{ id: number }>`SELECT s.id::int AS id FROM sessions s
        JOIN session_athletes sa ON sa.session_id = s.id
        WHERE sa.athlete_id = ${athlete} AND s.creneau > '2030-01-01' AND s.creneau < '2030-03-01' ORDER BY s.id`
      expect(expected.length).toBeGreaterThan(20)
      // The data set is one where the generic plan is the bad one.
      const generic = yield* buffersUnder("force_generic_plan", athlete)
      const custom = yield* buffersUnder("force_custom_plan", athlete)
      expect(generic).toBeGreaterThan(5 * custom)

      // One connection throughout: prepared statements and their plan counters are per connection.
      const plans = yield* sql.withTransaction(Effect.gen(function*() {
        for (let call = 0; call < 8; call++) {
          const summaries = yield* sessions.summariesOfAthlete(athlete, range)
          expect(summaries.map((summary) => summary.id)).toEqual(expected.map((row) => row.id))
        }
        return yield* Schema.decodeUnknownEffect(PlanCounts)(
          yield* sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
            FROM pg_prepared_statements WHERE starts_with(statement, 'SELECT s.id, s.name FROM sessions s')`
        )
      }))
      expect(plans.reduce((total, plan) => total + plan.generic, 0)).toBe(0)
    }))

  it.effect("an athlete's invited sessions of a period are planned for the values of each call, never from a generic plan", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const invitations = yield* InvitationRepository
      const [first] = yield* seedTeams
      const athlete = AthleteId.make(first!.id)
      const from = "2032-03-01T00:00:00" as LocalDateTime
      const until = "2032-04-01T00:00:00" as LocalDateTime
      // One connection throughout: prepared statements and their plan counters are per connection.
      const plans = yield* sql.withTransaction(Effect.gen(function*() {
        const answers: Array<ReadonlyArray<number>> = []
        for (let call = 0; call < 8; call++) {
          const sessions = yield* invitations.sessionsOf(athlete, from, until, undefined, 51)
          answers.push(sessions.map((session) => session.sessionId))
        }
        expect(answers[0]!.length).toBeGreaterThan(5)
        expect(new Set(answers.map((ids) => ids.join(","))).size).toBe(1)
        return yield* Schema.decodeUnknownEffect(PlanCounts)(
          yield* sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
            FROM pg_prepared_statements WHERE starts_with(statement, 'WITH own AS')`
        )
      }))
      expect(plans.reduce((total, plan) => total + plan.generic, 0)).toBe(0)
    }))
})
