import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { addPeople, addTasks, rangeOf, type Seeded, settle } from "./seed.ts"

/** The first session's hour; every range of the list scenarios starts before it and ends after the last. */
export const listSessionsStart = "2026-01-02 08:00:00"

/**
 * A data set in which every list answer holds exactly `items` rows: as many coaches, athletes,
 * tasks and users (the admin the server created on start counts as one), and as many sessions, all
 * of them the first athlete's, an hour apart, the first of them holding as many activities. The
 * listings that answer every row of a table need a database of their own for each size.
 */
export const seedLists = (sql: SqlClient.SqlClient, items: number): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const people = yield* addPeople(sql, { coaches: items, athletes: items })
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id)
        SELECT 'Session ' || g, false, ${listSessionsStart}::timestamp + (g - 1) * interval '1 hour',
          60, 'G', ${people.coaches.min}
        FROM generate_series(1, ${items}) AS g
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
      SELECT s.id, ${people.athletes.min} FROM sessions s WHERE s.id BETWEEN ${sessions.min} AND ${sessions.max}`
    yield* sql`INSERT INTO activities (name, theme, duree, data_activite, session_id)
      SELECT 'Activity ' || g, 'theme', 15, ARRAY['warm-up', 'drill ' || g], ${sessions.min}
      FROM generate_series(1, ${items}) AS g`
    yield* addTasks(sql, items)
    yield* sql`INSERT INTO users (name, email, role, password_hash)
      SELECT 'bench-user-' || g, 'user' || g || '@bench.example', 'COACH', 'not a password hash'
      FROM generate_series(1, ${items - 1}) AS g`
    yield* settle(sql)
    return { ...people, sessions }
  })
