import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Who came to a session (issue 18): `attendance_marks` holds each athlete's current mark and
 * references the membership (an athlete taken out of the session takes its mark with it);
 * `attendance_mark_history` keeps every change of a mark (who, what, when) for as long as the
 * session and the athlete exist. `attendance_marks_session_idx` serves the figures, which join the
 * marks to the sessions of a period (`sessions_creneau_idx`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE attendance_marks (
    session_id bigint NOT NULL,
    athlete_id bigint NOT NULL,
    status text NOT NULL CHECK (status IN ('present', 'late', 'absent', 'excused')),
    marked_by bigint NOT NULL,
    marked_at timestamptz NOT NULL,
    PRIMARY KEY (session_id, athlete_id),
    FOREIGN KEY (session_id, athlete_id) REFERENCES session_athletes (session_id, athlete_id) ON DELETE CASCADE
  )`
  yield* sql`CREATE TABLE attendance_mark_history (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    session_id bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    athlete_id bigint NOT NULL REFERENCES athletes (id) ON DELETE CASCADE,
    status text NOT NULL,
    previous_status text,
    changed_by bigint NOT NULL,
    changed_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX attendance_mark_history_session_idx ON attendance_mark_history (session_id, id)`
  yield* sql`CREATE INDEX attendance_mark_history_athlete_idx ON attendance_mark_history (athlete_id)`
})
