import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A session row holds only what the service can answer: its id, duree, coach and series within
 * ±(2^53-1), the integers a JSON number holds exactly (core's `Limits.maxGeneratedId`; written out
 * here because a migration never changes). A session create that commits by itself (decision 0317)
 * answers the row its statement wrote after the commit, so the database refuses, in that statement,
 * a row that could not be read back (a trigger's, or any other writer's), and nothing is kept; the
 * rest of a session row (text, a boolean, a timestamp read with `to_char`, the lists answered from
 * the input) always reads. Rows already stored are checked: one out of bounds could not be read.
 */
const bound = "9007199254740991"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE sessions
    ADD CONSTRAINT sessions_id_answerable CHECK (id BETWEEN -${bound} AND ${bound}),
    ADD CONSTRAINT sessions_duree_answerable CHECK (duree <= ${bound}),
    ADD CONSTRAINT sessions_coach_id_answerable CHECK (coach_id BETWEEN -${bound} AND ${bound}),
    ADD CONSTRAINT sessions_series_id_answerable CHECK (series_id BETWEEN -${bound} AND ${bound})`)
})
