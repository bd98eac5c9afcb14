import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { int8Array } from "../shared/int8Array.ts"

/** The longest session that books anyone: ten years in minutes (a longer `duree` books no one). */
export const maxBookedMinutes = 5_256_000

/**
 * The instants of session `s` (an alias of `sessions`): `[creneau read in `zone`, that instant +
 * duree minutes)`, real minutes whatever the clock does meanwhile. `club_instant` (migration 0023)
 * reads a skipped time with the offset before the skip and a repeated one as its first occurrence,
 * as core's `ClubTime.instantOf` does. Every booking, conflict and listing takes its instants here.
 */
export const during = (sql: SqlClient, zone: string) =>
  sql`tstzrange(club_instant(s.creneau, ${zone}), club_instant(s.creneau, ${zone}) + s.duree * interval '1 minute', '[)')`

/** Sessions that book anyone: a creneau and a duree of at least a minute and at most `maxBookedMinutes`. */
const bookable = (sql: SqlClient) =>
  // Written as a literal, so that the planner sees the predicate of `sessions_local_span_idx` in it.
  sql`s.creneau IS NOT NULL AND s.duree BETWEEN 1 AND ${sql.literal(String(maxBookedMinutes))}`

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
 * A page of the pairs of sessions booking the same coach or athlete at overlapping instants in
 * `zone`: at most `limit`, those after `after` in (session, other session, coach before athletes,
 * person) order. One statement over the sessions themselves (not the booking tables, which hold
 * only what the schedule endpoints booked). Its work follows the page, not every pair there is
 * (issue 37): the sessions are walked in id order from the cursor's (an incremental sort over
 * the primary key), each one's pairs computed among the sessions near it in time (an index
 * probe) and cut to the page on their own (`LATERAL ... LIMIT`), and the walk stops once the page
 * is full.
 */
export const doubleBookings = (
  sql: SqlClient,
  zone: string,
  after: {
    readonly sessionId: number
    readonly otherSessionId: number
    readonly kind: 0 | 1
    readonly personId: number
  } | undefined,
  limit: number
) => {
  const from = after ?? { sessionId: 0, otherSessionId: 0, kind: 0, personId: 0 }
  // Strictly after the cursor; with no cursor, from the very first pair (ids and kinds are >= 0).
  const position = after === undefined
    ? sql`(a.id, pair.other, pair.kind, pair.person) >= (0, 0, 0, 0)`
    : sql`(a.id, pair.other, pair.kind, pair.person) > (${from.sessionId}::bigint, ${from.otherSessionId}::bigint, ${from.kind}::int, ${from.personId}::bigint)`
  // A session's wall-clock span (`sessions_local_span_idx`, migration 0021): the sessions within a
  // day of another's are found through the index, and their instants compared exactly.
  const localSpan = sql.literal(`tsrange(s.creneau, s.creneau + s.duree * interval '1 minute', '[)')`)
  return sql`SELECT a.id::float8 AS "sessionId", pair.other::float8 AS "otherSessionId",
      CASE WHEN pair.kind = 0 THEN pair.person::float8 END AS "coachId",
      CASE WHEN pair.kind = 1 THEN pair.person::float8 END AS "athleteId"
    FROM (SELECT s.id, s.coach_id, ${during(sql, zone)} AS during,
        tsrange(s.creneau - interval '1 day', s.creneau + s.duree * interval '1 minute' + interval '1 day', '[)') AS near
      FROM sessions s WHERE ${bookable(sql)} AND s.id >= ${from.sessionId}) a
    CROSS JOIN LATERAL (
      SELECT pair.* FROM (
        SELECT b.id AS other, 0 AS kind, a.coach_id AS person
        FROM (SELECT s.id, ${during(sql, zone)} AS during FROM sessions s
          WHERE s.coach_id = a.coach_id AND s.id > a.id AND ${bookable(sql)} AND ${localSpan} && a.near) b
        WHERE b.during && a.during
        UNION ALL
        SELECT b.id, 1, x.athlete_id
        FROM (SELECT s.id, ${during(sql, zone)} AS during FROM sessions s
            WHERE s.id > a.id AND ${bookable(sql)} AND ${localSpan} && a.near) b
          JOIN session_athletes x ON x.session_id = a.id
          JOIN session_athletes y ON y.session_id = b.id AND y.athlete_id = x.athlete_id
        WHERE b.during && a.during) pair
      WHERE ${position}
      ORDER BY pair.other, pair.kind, pair.person
      LIMIT ${limit}) pair
    ORDER BY a.id, pair.other, pair.kind, pair.person
    LIMIT ${limit}`
}
