import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Replies to sessions, their capacity and their waiting list (issue 18).
 *
 * - `session_attendance` holds what a coach sets for a session: its capacity (null: no limit) and
 *   its reply cut-off (a wall-clock time at the club, as `creneau`). A session without a row has
 *   neither.
 * - `session_replies` holds one reply per member of a session: it references the membership, so an
 *   athlete leaving the session (or the session, or the athlete, going) takes the reply with it.
 * - `reply_order` numbers the yeses: a yes is numbered while its session's row is locked (see
 *   docs/attendance.md), so the numbers of one session's yeses are in the order they were written,
 *   and the waiting list is read in that order (`session_replies_waiting_idx`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE session_attendance (
    session_id bigint PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    capacity integer CHECK (capacity >= 0),
    reply_cutoff timestamp without time zone
  )`
  yield* sql`CREATE SEQUENCE reply_order`
  yield* sql`CREATE TABLE session_replies (
    session_id bigint NOT NULL,
    athlete_id bigint NOT NULL,
    answer text NOT NULL CHECK (answer IN ('yes', 'no', 'maybe')),
    reason text,
    state text NOT NULL CHECK (state IN ('confirmed', 'waiting', 'maybe', 'declined')),
    yes_order bigint,
    replied_by bigint NOT NULL,
    replied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, athlete_id),
    FOREIGN KEY (session_id, athlete_id) REFERENCES session_athletes (session_id, athlete_id) ON DELETE CASCADE,
    CHECK ((answer = 'yes') = (yes_order IS NOT NULL))
  )`
  yield* sql`CREATE INDEX session_replies_waiting_idx ON session_replies (session_id, yes_order) WHERE state = 'waiting'`
  yield* sql`CREATE INDEX session_replies_athlete_idx ON session_replies (athlete_id)`
})
