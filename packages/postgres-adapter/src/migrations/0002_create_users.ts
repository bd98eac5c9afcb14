import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A user is linked to at most one coach, athlete or admin record, and each record to at most one
 * user (the UNIQUE constraints, which also index the lookups by link). Deleting a record clears
 * the link. `tokens_valid_after` is in epoch seconds: tokens issued before it no longer count.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE users (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    email text,
    role text NOT NULL,
    password_hash text NOT NULL,
    coach_id bigint REFERENCES coaches (id) ON DELETE SET NULL,
    athlete_id bigint REFERENCES athletes (id) ON DELETE SET NULL,
    admin_id bigint REFERENCES admins (id) ON DELETE SET NULL,
    tokens_valid_after bigint NOT NULL DEFAULT 0,
    CONSTRAINT users_name_unique UNIQUE (name),
    CONSTRAINT users_coach_id_unique UNIQUE (coach_id),
    CONSTRAINT users_athlete_id_unique UNIQUE (athlete_id),
    CONSTRAINT users_admin_id_unique UNIQUE (admin_id),
    CONSTRAINT users_role_known CHECK (role IN ('ADMIN', 'COACH', 'ATHLETE')),
    CONSTRAINT users_at_most_one_link CHECK (num_nonnulls(coach_id, athlete_id, admin_id) <= 1)
  )`
  yield* sql`CREATE INDEX users_role_idx ON users (role)`
})
