import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The planning's paging and calendar feeds (issue 17). Pages of sessions are read in (`creneau`,
 * `id`) order, a session without a `creneau` first: this index serves the keyset condition and the
 * order of `SessionRepository.page` in one range scan.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX sessions_page_idx ON sessions ((COALESCE(creneau, '-infinity'::timestamp)), id)`
})
