import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Cancelled occurrences (issue 17, docs/schedule/feeds-and-paging.md "Series"): an occurrence
 * cancelled by itself (`scope=one`) loses its session, as before, and is remembered here so that a
 * calendar feed shows it as `STATUS:CANCELLED` under its `RECURRENCE-ID` rather than as an EXDATE.
 *
 * - `occurrence_start`: the time the rule gave it; it moves with the series' time of day, and to
 *   the series that continues it, as the occurrences' do.
 * - `sequence`: the cancellation's SEQUENCE, one more than the greater of the series' and the
 *   session's revisions when it was cancelled.
 * - `coach_id`, `groupe`, `athlete_ids`: who the session was for when it was cancelled, as
 *   written then (no references: a feed only compares them with its scope), so that a feed shows
 *   the cancellation only where the session was, and keeps an EXDATE elsewhere.
 * - Deleted with the series; "this and the following" drops those it ends.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE series_cancellations (
    series_id bigint NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    occurrence_start timestamp NOT NULL,
    cancelled_at timestamptz NOT NULL DEFAULT now(),
    sequence integer NOT NULL CHECK (sequence >= 0),
    coach_id bigint,
    groupe text,
    athlete_ids bigint[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (series_id, occurrence_start)
  )`
})
