import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { int8Array } from "./int8Array.ts"

/** The longest session that books anyone: ten years in minutes (a longer `duree` books no one). */
export const maxBookedMinutes = 5_256_000

/** The instants of session `s` (an alias of `sessions`), `[creneau, creneau + duree minutes)` in `zone`. */
const during = (sql: SqlClient, zone: string) =>
  sql`tstzrange(s.creneau AT TIME ZONE ${zone}, (s.creneau + s.duree * interval '1 minute') AT TIME ZONE ${zone}, '[)')`

/** Sessions that book anyone: a creneau and a duree of at least a minute and at most `maxBookedMinutes`. */
const bookable = (sql: SqlClient) => sql`s.creneau IS NOT NULL AND s.duree BETWEEN 1 AND ${maxBookedMinutes}`

/**
 * Books the coach and the athletes of each session of `sessionIds` over its instants in `zone`, in
 * one statement. A booking that overlaps another of the same person is skipped (`ON CONFLICT DO
 * NOTHING`, which waits for a transaction booking the same person meanwhile and skips when it
 * commits). Answers whether any was skipped.
 */
export const bookSessions = (sql: SqlClient, zone: string, sessionIds: ReadonlyArray<number>) =>
  Effect.map(
    sql<{ skipped: boolean }>`WITH wanted AS (
        SELECT s.id, s.coach_id, ${during(sql, zone)} AS during FROM sessions s
        WHERE s.id = ANY(${int8Array(sessionIds)}::bigint[]) AND ${bookable(sql)}),
      coach AS (INSERT INTO coach_bookings (session_id, coach_id, during)
        SELECT id, coach_id, during FROM wanted WHERE coach_id IS NOT NULL
        ON CONFLICT DO NOTHING RETURNING 1),
      athlete AS (INSERT INTO athlete_bookings (session_id, athlete_id, during)
        SELECT wanted.id, sa.athlete_id, wanted.during FROM wanted JOIN session_athletes sa ON sa.session_id = wanted.id
        ON CONFLICT DO NOTHING RETURNING 1)
      SELECT (SELECT count(*) FROM coach) + (SELECT count(*) FROM athlete) <
        (SELECT count(*) FROM wanted WHERE coach_id IS NOT NULL) +
        (SELECT count(*) FROM wanted JOIN session_athletes sa ON sa.session_id = wanted.id) AS skipped`,
    (rows) => rows[0]!.skipped
  )

/**
 * The other sessions whose bookings overlap one the sessions of `sessionIds` want (the same coach
 * or athlete), ascending: run after `bookSessions` skipped some, it names what they met.
 */
export const sessionsMet = (sql: SqlClient, zone: string, sessionIds: ReadonlyArray<number>) =>
  Effect.map(
    sql<{ id: number }>`WITH wanted AS (
        SELECT s.id, s.coach_id, ${during(sql, zone)} AS during FROM sessions s
        WHERE s.id = ANY(${int8Array(sessionIds)}::bigint[]) AND ${bookable(sql)})
      SELECT b.session_id::float8 AS id FROM coach_bookings b JOIN wanted w
        ON b.coach_id = w.coach_id AND b.during && w.during
      WHERE NOT (b.session_id = ANY(${int8Array(sessionIds)}::bigint[]))
      UNION
      SELECT b.session_id::float8 FROM athlete_bookings b
        JOIN session_athletes sa ON sa.athlete_id = b.athlete_id
        JOIN wanted w ON w.id = sa.session_id AND b.during && w.during
      WHERE NOT (b.session_id = ANY(${int8Array(sessionIds)}::bigint[]))
      ORDER BY 1`,
    (rows) => rows.map((row) => Number(row.id))
  )

/**
 * Every pair of sessions booking the same coach or athlete at overlapping instants in `zone`, in
 * one statement over the sessions themselves (not the booking tables, which hold only what the
 * schedule endpoints booked).
 */
export const doubleBookings = (sql: SqlClient, zone: string) =>
  sql`WITH booked AS (
      SELECT s.id, s.coach_id, ${during(sql, zone)} AS during FROM sessions s WHERE ${bookable(sql)})
    SELECT a.id::float8 AS "sessionId", b.id::float8 AS "otherSessionId", a.coach_id::float8 AS "coachId",
      NULL::float8 AS "athleteId"
    FROM booked a JOIN booked b ON b.coach_id = a.coach_id AND b.id > a.id AND b.during && a.during
    UNION ALL
    SELECT a.id::float8, b.id::float8, NULL::float8, x.athlete_id::float8
    FROM booked a
      JOIN session_athletes x ON x.session_id = a.id
      JOIN session_athletes y ON y.athlete_id = x.athlete_id AND y.session_id > a.id
      JOIN booked b ON b.id = y.session_id AND b.during && a.during
    ORDER BY 1, 2, 3 NULLS LAST, 4`
