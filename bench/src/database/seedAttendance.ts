import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { addPeople, rangeOf, type Seeded, settle } from "./seed.ts"

/** One full session: 200 athletes all in it, 20 places (set through the API by the phase). */
export const attendanceBurst = { athletes: 200, capacity: 20 } as const

/** A coach, 200 athletes, and one session far ahead (its replies stay open) holding all of them. */
export const seedAttendance = (sql: SqlClient.SqlClient): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const people = yield* addPeople(sql, { coaches: 1, athletes: attendanceBurst.athletes })
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id)
        VALUES ('Full session', false, timestamp '2099-06-01 18:00', 90, 'G0', ${people.coaches.min})
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
      SELECT ${sessions.min}, a.id FROM athletes a
      WHERE a.id BETWEEN ${people.athletes.min} AND ${people.athletes.max}`
    yield* settle(sql)
    return { ...people, sessions }
  })
