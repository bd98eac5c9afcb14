import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  type ContractSuite,
  type Implementation,
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

const implementationOn = (database: TestDatabase): Implementation => ({
  name: database.name,
  available: database.available,
  layer: Layer.mergeAll(RepositoriesLive, StoredFailuresInDatabase, StoredKeysInDatabase).pipe(
    Layer.provideMerge(database.layer)
  )
})

/**
 * Runs a suite of core's repository contract on each test database, each block on a fresh
 * database of its own; core runs the same suites on its in-memory store.
 */
export const onEachDatabaseContract = (suite: ContractSuite) => runContract(suite, databases.map(implementationOn))
