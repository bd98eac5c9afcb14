import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { addPeople, rangeOf, type Seeded, settle } from "./seed.ts"

/** A club of 200 athletes in 10 groups of 20, each group with its coach. */
export const scheduleClub = { athletes: 200, groups: 10, trainingsPerWeek: 3 } as const

/**
 * A season of training: from January to June 2026, every group trains on three evenings a week
 * (group g on days g, g + 2 and g + 4 of the week, mod 7) at 18:00 for 90 minutes, with its 20
 * athletes (athlete a is in group a mod 10). About 130 sessions fall in a month.
 */
export const seedSchedule = (sql: SqlClient.SqlClient): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const people = yield* addPeople(sql, { coaches: scheduleClub.groups, athletes: scheduleClub.athletes })
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id)
        SELECT 'Training G' || g, true, d + time '18:00', 90, 'G' || g, ${people.coaches.min} + g
        FROM generate_series(0, ${scheduleClub.groups - 1}) AS g,
          generate_series(timestamp '2026-01-05', timestamp '2026-06-28', interval '1 day') AS d
        WHERE (extract(isodow FROM d)::int - 1 - g + 70) % 7 IN (0, 2, 4)
        ORDER BY d, g
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
      SELECT s.id, a.id FROM sessions s JOIN athletes a
        ON s.groupe = 'G' || ((a.id - ${people.athletes.min}) % ${scheduleClub.groups})
      WHERE s.id BETWEEN ${sessions.min} AND ${sessions.max}`
    yield* settle(sql)
    return { ...people, sessions }
  })
