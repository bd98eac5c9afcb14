import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Groups, their coaches, dated memberships and guardians (issue 41, docs/membership.md). One root:
 * the unique index on `parent_id IS NULL` admits one group without a parent. A membership is the
 * days `[from_date, until_date]` (until null: open); two memberships of one athlete in one group
 * never share a day (a range over the ids with `&&` is equality, as the bookings do, so plain range
 * GiST needs no extension), and the same index answers "the members of a group on a day".
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE groups (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    name text NOT NULL UNIQUE,
    parent_id bigint REFERENCES groups (id)
  )`
  yield* sql`CREATE UNIQUE INDEX groups_one_root ON groups ((parent_id IS NULL)) WHERE parent_id IS NULL`
  yield* sql`CREATE INDEX groups_parent_idx ON groups (parent_id)`
  yield* sql`CREATE TABLE group_coaches (
    group_id bigint NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    coach_id bigint NOT NULL REFERENCES coaches (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, coach_id)
  )`
  yield* sql`CREATE INDEX group_coaches_coach_idx ON group_coaches (coach_id)`
  yield* sql`CREATE TABLE memberships (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    group_id bigint NOT NULL REFERENCES groups (id),
    athlete_id bigint NOT NULL REFERENCES athletes (id) ON DELETE CASCADE,
    from_date date NOT NULL,
    until_date date,
    CHECK (until_date IS NULL OR until_date >= from_date),
    EXCLUDE USING gist (
      (int8range(group_id, group_id, '[]')) WITH &&,
      (int8range(athlete_id, athlete_id, '[]')) WITH &&,
      (daterange(from_date, until_date, '[]')) WITH &&
    )
  )`
  yield* sql`CREATE INDEX memberships_athlete_idx ON memberships (athlete_id, from_date)`
  yield* sql`CREATE TABLE guardianships (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    athlete_id bigint NOT NULL REFERENCES athletes (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, athlete_id)
  )`
  yield* sql`CREATE INDEX guardianships_athlete_idx ON guardianships (athlete_id)`
})
