import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { addPeople, rangeOf, type Seeded, settle } from "./seed.ts"

/** The range of the skewed data set's reads: two months of sessions, of which the athlete is in a few. */
export const skewedRange = { from: "2030-01-01", to: "2030-03-01" } as const

/**
 * The data set of packages/postgres-adapter/test/stablePlans.test.ts, on which the generic plan of
 * an athlete's sessions in a range is the bad one: 1,000 sessions, one every three hours from
 * 2030-01-01, of 10 athletes each among 200, stored in session order. An athlete is in 50 sessions;
 * the range holds 471. Planned without the values, PostgreSQL estimates a handful of sessions in
 * any range, walks the range and probes the memberships once per session; planned with them, it
 * reads the athlete's 50 memberships.
 */
export const seedSkewedSessions = (sql: SqlClient.SqlClient): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const people = yield* addPeople(sql, { coaches: 1, athletes: 200 })
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, creneau)
        SELECT 'session ' || n, timestamp '2030-01-01' + n * interval '3 hours' FROM generate_series(1, 1000) AS n
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
      SELECT s.id, ${people.athletes.min} + (s.n * 7 + k) % 200
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM sessions) AS s
      CROSS JOIN generate_series(0, 9) AS k
      ORDER BY s.id, 2`
    yield* settle(sql)
    return { ...people, sessions }
  })
