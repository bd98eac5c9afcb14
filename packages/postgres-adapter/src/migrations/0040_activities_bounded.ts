import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * An activity row holds only what the service can answer, as a session row does (migration 0038):
 * its id and duree within ±(2^53-1), the integers a JSON number holds exactly (core's
 * `Limits.maxGeneratedId`; written out here because a migration never changes); its session's id
 * is bounded by the session's own. Activity creates commit by themselves (decision 0318) and answer
 * the rows their statement wrote after the commit, so the database refuses, in that statement, a
 * row that could not be read back (a trigger's, or any other writer's), and nothing is kept. Rows
 * already stored are checked: one out of bounds could not be read.
 */
const bound = "9007199254740991"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE activities
    ADD CONSTRAINT activities_id_answerable CHECK (id BETWEEN -${bound} AND ${bound}),
    ADD CONSTRAINT activities_duree_answerable CHECK (duree <= ${bound})`)
})
