import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Who is booked when (issue 17, docs/schedule/series.md "Conflicts"): a row per session and its
 * coach, and per session and each of its athletes, over the instants `[creneau, creneau + duree
 * minutes)` in the club's zone. The exclusion constraints refuse a coach or an athlete booked twice
 * at overlapping instants, whatever the number of writers: PostgreSQL checks them against rows of
 * transactions still in progress, waiting for their outcome. A range over the id with `&&` is
 * equality, so plain range GiST needs no extension. An athlete's booking goes with the membership
 * it stands for (its foreign key), and both go with the session.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE coach_bookings (
    session_id bigint PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    coach_id bigint NOT NULL,
    during tstzrange NOT NULL,
    EXCLUDE USING gist ((int8range(coach_id, coach_id, '[]')) WITH &&, during WITH &&)
  )`
  yield* sql`CREATE TABLE athlete_bookings (
    session_id bigint NOT NULL,
    athlete_id bigint NOT NULL,
    during tstzrange NOT NULL,
    PRIMARY KEY (session_id, athlete_id),
    FOREIGN KEY (session_id, athlete_id) REFERENCES session_athletes (session_id, athlete_id) ON DELETE CASCADE,
    EXCLUDE USING gist ((int8range(athlete_id, athlete_id, '[]')) WITH &&, during WITH &&)
  )`
})
