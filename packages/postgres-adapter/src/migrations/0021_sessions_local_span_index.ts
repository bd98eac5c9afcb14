import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The wall-clock span of each session that books anyone, indexed for overlap (issue 37): a page of
 * `GET /planning/conflicts` finds the sessions near one session through it rather than by reading
 * every session. Wall-clock, not instants, so that the index does not depend on the club's zone;
 * the query widens it by a day and checks the instants exactly (`sessions/bookings.ts`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX sessions_local_span_idx ON sessions
    USING gist (tsrange(creneau, creneau + duree * interval '1 minute', '[)'))
    WHERE creneau IS NOT NULL AND duree BETWEEN 1 AND 5256000`
})
