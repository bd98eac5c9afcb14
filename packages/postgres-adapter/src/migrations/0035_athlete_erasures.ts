import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The ledger of erasures (migration 0033) records an athlete erased alone, with no user (a child
 * without a login, decision 0300): `user_id` may be null, a row is keyed by an id of its own, and
 * stays unique by user, and, for a row with no user, by athlete. A row names someone.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE person_erasures DROP CONSTRAINT person_erasures_pkey`
  yield* sql`ALTER TABLE person_erasures
    ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY`
  yield* sql`ALTER TABLE person_erasures ALTER COLUMN user_id DROP NOT NULL`
  yield* sql`ALTER TABLE person_erasures ADD CONSTRAINT person_erasures_user_id_unique UNIQUE (user_id)`
  yield* sql`CREATE UNIQUE INDEX person_erasures_athlete_alone ON person_erasures (athlete_id) WHERE user_id IS NULL`
  yield* sql`ALTER TABLE person_erasures ADD CONSTRAINT person_erasures_names_someone
    CHECK (user_id IS NOT NULL OR athlete_id IS NOT NULL)`
})
