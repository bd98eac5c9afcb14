import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

export interface IdRange {
  readonly min: number
  readonly max: number
}

export interface Seeded {
  readonly coaches: IdRange
  readonly athletes: IdRange
  readonly sessions: IdRange
}

export const athletesPerSession = 10
export const activitiesPerSession = 5

export const rangeOf = (rows: ReadonlyArray<{ readonly min: unknown; readonly max: unknown }>): IdRange => {
  const row = rows[0]
  if (row === undefined || row.min === null) throw new Error("nothing was inserted")
  return { min: Number(row.min), max: Number(row.max) }
}

/**
 * Sessions `count` more, each with 10 athletes and 5 activities, written by set-based
 * `INSERT ... SELECT` statements (one per table) rather than row by row. Athlete k of session s is
 * `(7s + 101k) mod athletes`: distinct within a session and spread evenly over the athletes.
 */
export const addSessions = (sql: SqlClient.SqlClient, count: number, people: Omit<Seeded, "sessions">) =>
  Effect.gen(function*() {
    const coaches = people.coaches.max - people.coaches.min + 1
    const athletes = people.athletes.max - people.athletes.min + 1
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id)
        SELECT 'Session ' || g, g % 2 = 0,
          timestamp '2026-01-01 08:00:00' + (g % 365) * interval '1 day' + (g % 10) * interval '1 hour',
          30 + (g % 4) * 15, 'G' || (g % 5), ${people.coaches.min} + (g % ${coaches})
        FROM generate_series(1, ${count}) AS g
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
      SELECT s.id, ${people.athletes.min} + ((s.id * 7 + k * 101) % ${athletes})
      FROM sessions s, generate_series(0, ${athletesPerSession - 1}) AS k
      WHERE s.id BETWEEN ${sessions.min} AND ${sessions.max}`
    yield* sql`INSERT INTO activities (name, theme, duree, data_activite, session_id)
      SELECT 'Activity ' || s.id || '.' || k, 'theme ' || k, 15 * k, ARRAY['warm-up', 'drill ' || k], s.id
      FROM sessions s, generate_series(1, ${activitiesPerSession}) AS k
      WHERE s.id BETWEEN ${sessions.min} AND ${sessions.max}`
    return sessions
  })

/** Coaches and athletes; the admin the server created on start is left as it is. */
export const addPeople = (sql: SqlClient.SqlClient, sizes: { readonly coaches: number; readonly athletes: number }) =>
  Effect.gen(function*() {
    const coaches = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO coaches (name) SELECT 'Coach ' || g FROM generate_series(1, ${sizes.coaches}) AS g RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    const athletes = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO athletes (name, categorie, niveau)
        SELECT 'Athlete ' || g, 'Senior', 'N' || (g % 3) FROM generate_series(1, ${sizes.athletes}) AS g RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    return { coaches, athletes }
  })

export const addTasks = (sql: SqlClient.SqlClient, count: number) =>
  sql`INSERT INTO tasks (title, description)
    SELECT 'Task ' || g, 'Seeded task number ' || g FROM generate_series(1, ${count}) AS g ORDER BY g`

export interface DataSet {
  readonly coaches: number
  readonly athletes: number
  readonly sessions: number
  readonly tasks: number
}

/**
 * Vacuum, statistics and a checkpoint right after a bulk insert, so that neither autovacuum nor the
 * checkpointer starts on the new rows in the middle of a measurement. CHECKPOINT needs a superuser
 * (or pg_checkpoint); without one it is skipped.
 */
export const settle = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    yield* sql`VACUUM (ANALYZE)`
    yield* sql`CHECKPOINT`.pipe(Effect.ignore)
  })

/** The data set, into a database the server has migrated. */
export const seed = (sql: SqlClient.SqlClient, sizes: DataSet): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const people = yield* addPeople(sql, sizes)
    const sessions = yield* addSessions(sql, sizes.sessions, people)
    yield* addTasks(sql, sizes.tasks)
    yield* settle(sql)
    return { ...people, sessions }
  })
