import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  type ContractSuite,
  type Implementation,
  MembershipFixture,
  runContract,
  StoredIdempotencyKeys,
  StoredLoginFailures
} from "../../../core/test/repositoryContract/Contract.ts"
import { RepositoriesLive } from "../../src/RepositoriesLive.ts"
import type { TestDatabase } from "../../src/testing/index.ts"
import { databases } from "./databases.ts"

const StoredRows = Schema.Array(Schema.Struct({ key: Schema.String, failures: Schema.Int, last: Schema.String }))

/** The `login_throttle` rows of the keys, as the contract's tests look at them (in code-point order, as in memory). */
const StoredFailuresInDatabase = Layer.effect(
  StoredLoginFailures,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return StoredLoginFailures.of({
      of: (keys) =>
        sql`SELECT key, failures, last_failure_at_ms::text AS last FROM login_throttle
          WHERE key = ANY(${[...keys]}::text[]) ORDER BY key COLLATE "C"`.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(StoredRows)),
          Effect.map((rows) => rows.map((row) => [row.key, row.failures, Number(row.last)] as const)),
          Effect.orDie
        )
    })
  })
)

const StoredKeyRows = Schema.Array(Schema.Struct({ key: Schema.String }))

/** The `idempotency_keys` rows of the caller's keys, as the contract's tests look at them (in code-point order, as in memory). */
const StoredKeysInDatabase = Layer.effect(
  StoredIdempotencyKeys,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return StoredIdempotencyKeys.of({
      of: (caller, keys) =>
        sql`SELECT key FROM idempotency_keys
          WHERE user_id = ${BigInt(caller)} AND key = ANY(${[...keys]}::text[]) ORDER BY key COLLATE "C"`.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(StoredKeyRows)),
          Effect.map((rows) => rows.map((row) => row.key)),
          Effect.orDie
        )
    })
  })
)

const IdRow = Schema.Array(Schema.Struct({ id: Schema.Number }))
const idOf = Effect.fnUntraced(function*(rows: unknown) {
  return (yield* Effect.orDie(Schema.decodeUnknownEffect(IdRow)(rows)))[0]!.id
})

/** Groups and memberships written with SQL into migration 0024's tables. */
const MembershipsInDatabase = Layer.effect(
  MembershipFixture,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MembershipFixture.of({
      root: () =>
        sql`WITH found AS (SELECT id FROM groups WHERE parent_id IS NULL),
            made AS (INSERT INTO groups (name, parent_id) SELECT 'Club', NULL WHERE NOT EXISTS (SELECT 1 FROM found)
              RETURNING id)
          SELECT id::float8 AS id FROM found UNION ALL SELECT id::float8 FROM made`.pipe(
          Effect.flatMap(idOf),
          Effect.orDie
        ),
      group: (name, parentId, coachIds) =>
        sql`WITH g AS (INSERT INTO groups (name, parent_id) VALUES (${name}, ${parentId}) RETURNING id),
            c AS (INSERT INTO group_coaches (group_id, coach_id)
              SELECT g.id, unnest(${[...coachIds].map(String)}::bigint[]) FROM g)
          SELECT id::float8 AS id FROM g`.pipe(Effect.flatMap(idOf), Effect.orDie),
      member: (groupId, athleteId, from, until) =>
        sql`INSERT INTO memberships (group_id, athlete_id, from_date, until_date)
          VALUES (${groupId}, ${athleteId}, ${from}::date, ${until}::date) RETURNING id::float8 AS id`.pipe(
          Effect.flatMap(idOf),
          Effect.orDie
        ),
      end: (membershipId, until) =>
        sql`UPDATE memberships SET until_date = ${until}::date WHERE id = ${membershipId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      guard: (userId, athleteId) =>
        sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${userId}, ${athleteId})`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)

const implementationOn = (database: TestDatabase): Implementation => ({
  name: database.name,
  available: database.available,
  layer: Layer.mergeAll(RepositoriesLive, StoredFailuresInDatabase, StoredKeysInDatabase, MembershipsInDatabase).pipe(
    Layer.provideMerge(database.layer)
  )
})

/**
 * Runs a suite of core's repository contract on each test database, each block on a fresh
 * database of its own; core runs the same suites on its in-memory store.
 */
export const onEachDatabaseContract = (suite: ContractSuite) => runContract(suite, databases.map(implementationOn))
