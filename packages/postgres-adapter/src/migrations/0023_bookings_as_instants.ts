import { canonicalTimeZone, defaultScheduleSettings } from "@club/core"
import { Config, Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Bookings are instants (issue 36): `[creneau read in the club's zone, that instant + duree
 * minutes)`, where a wall-clock time is read as RFC 5545 §3.3.5 and Temporal's "compatible"
 * disambiguation say (core's `ClubTime.instantOf`): a time the clock skips with the offset before
 * the skip, a time it shows twice as its first occurrence. `club_instant` is that reading;
 * PostgreSQL's own `AT TIME ZONE` reads a repeated time as its second occurrence, so it is used
 * only where the first does not show `local`. The offsets a day before and after are the two
 * around `local` (transitions are days apart); hours, not days, so no session time zone bends them.
 *
 * The bookings stored before were computed on the wall clock (`creneau + duree` read in the zone),
 * so they are computed again here in the club's zone (CLUB_TIMEZONE, as the server reads it). Two
 * bookings of one person that now overlap in real time cannot both stay (the exclusion
 * constraints): the one of the older session keeps its booking, and the pair is listed by
 * `GET /planning/conflicts` for the club to resolve.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION club_instant(local timestamp, zone text) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN (early AT TIME ZONE zone) = local THEN early ELSE local AT TIME ZONE zone END
      FROM (SELECT (local AT TIME ZONE 'UTC') - greatest(
        (((local AT TIME ZONE 'UTC') - interval '24 hours') AT TIME ZONE zone) - (local - interval '24 hours'),
        (((local AT TIME ZONE 'UTC') + interval '24 hours') AT TIME ZONE zone) - (local + interval '24 hours')
      ) AS early) AS reading
    $$`)
  const named = yield* Config.String("CLUB_TIMEZONE").pipe(Config.withDefault(defaultScheduleSettings.timeZone))
  // A zone the server would refuse leaves the bookings as they are: the server does not start on it.
  const zone = canonicalTimeZone(named.trim())
  if (zone === undefined) return
  const during = sql`tstzrange(club_instant(s.creneau, ${zone}),
    club_instant(s.creneau, ${zone}) + s.duree * interval '1 minute', '[)')`
  // One transaction (the migrator's, or its own when run alone), on one connection for the table.
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`CREATE TEMPORARY TABLE held_bookings ON COMMIT DROP AS
    SELECT session_id, coach_id, NULL::bigint AS athlete_id FROM coach_bookings
    UNION ALL SELECT session_id, NULL, athlete_id FROM athlete_bookings`
    yield* sql`DELETE FROM coach_bookings`
    yield* sql`DELETE FROM athlete_bookings`
    yield* sql`INSERT INTO coach_bookings (session_id, coach_id, during)
    SELECT h.session_id, h.coach_id, ${during} FROM held_bookings h JOIN sessions s ON s.id = h.session_id
    WHERE h.coach_id IS NOT NULL ORDER BY h.session_id
    ON CONFLICT DO NOTHING`
    yield* sql`INSERT INTO athlete_bookings (session_id, athlete_id, during)
    SELECT h.session_id, h.athlete_id, ${during} FROM held_bookings h JOIN sessions s ON s.id = h.session_id
    WHERE h.athlete_id IS NOT NULL ORDER BY h.session_id
    ON CONFLICT DO NOTHING`
  }))
})
