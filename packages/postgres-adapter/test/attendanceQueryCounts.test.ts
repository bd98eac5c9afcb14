import { AttendanceRepository, type LocalDateTime, type SessionId } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

const from = "2032-01-01T00:00:00" as LocalDateTime
const until = "2033-01-01T00:00:00" as LocalDateTime

/**
 * A club of `athletes` athletes in `groups` groups, each athlete in `sessions` sessions of its
 * group in 2032 with a mark, written with plain SQL: this test is about the cost of reading.
 */
const seedClub = (athletes: number, groups: number, sessions: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`WITH a AS (
        INSERT INTO athletes (name) SELECT 'member ' || n FROM generate_series(1, ${athletes}) AS n RETURNING id),
      s AS (
        INSERT INTO sessions (name, creneau, groupe)
        SELECT 'training', timestamp '2032-01-05 18:00' + (n % 300) * interval '1 day', 'group ' || (n % ${groups})
        FROM generate_series(1, ${groups * sessions}) AS n RETURNING id, groupe),
      m AS (
        INSERT INTO session_athletes (session_id, athlete_id)
        SELECT s.id, a.id FROM s JOIN a ON 'group ' || (a.id % ${groups}) = s.groupe RETURNING session_id, athlete_id)
      INSERT INTO attendance_marks (session_id, athlete_id, status, marked_by, marked_at)
      SELECT session_id, athlete_id, (ARRAY['present', 'late', 'absent', 'excused'])[1 + (athlete_id + session_id) % 4], 1, now()
      FROM m`
  })

onEachDatabase("Attendance query counts", (it) => {
  it.effect("the figures and the season's export are one statement each, for a small club and a large one", () =>
    Effect.gen(function*() {
      const attendance = yield* AttendanceRepository
      yield* seedClub(4, 2, 3)
      const smallFigures = yield* countStatements(attendance.figures(from, until, null))
      const smallExport = yield* countStatements(attendance.presenceLines(from, until))
      yield* seedClub(400, 10, 20)
      const largeFigures = yield* countStatements(attendance.figures(from, until, null))
      const largeExport = yield* countStatements(attendance.presenceLines(from, until))
      const reading = yield* countStatements(attendance.presence(1 as SessionId))
      expect(smallFigures.result.athletes.length).toBe(4)
      expect(largeFigures.result.athletes.length).toBe(404)
      expect(largeFigures.result.groups.length).toBe(10)
      expect(largeExport.result.length).toBeGreaterThan(smallExport.result.length)
      expect([smallFigures, largeFigures, smallExport, largeExport].map((c) => c.statements.length)).toEqual([
        1,
        1,
        1,
        1
      ])
      expect(Option.isSome(reading.result)).toBe(true)
      expect(reading.statements).toHaveLength(1)
    }))
})
