import { randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { migrated } from "../database/MigrationsLive.ts"
import { PostgresServer } from "../database/PostgresServer.ts"

const temporaryDatabaseName = () => `club_test_${randomBytes(6).toString("hex")}`

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Runs one statement on the server's maintenance database, over a connection of its own. */
const onServer = (serverUrl: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* statement(sql)
  }).pipe(
    Effect.provide(
      PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, connectTimeout: Duration.seconds(5) })
    ),
    Effect.orDie
  )

/**
 * A database of its own on the PostgreSQL server at `serverUrl`, for one test suite: created
 * (`club_test_<random>`) and migrated when the layer is built, dropped when it is released. The
 * client pool closes first; `WITH (FORCE)` ends any connection still open.
 */
export const TemporaryServerDatabase = (serverUrl: string) =>
  Layer.unwrap(Effect.gen(function*() {
    const database = temporaryDatabaseName()
    yield* Effect.acquireRelease(
      onServer(serverUrl, (sql) => sql`CREATE DATABASE ${sql(database)}`),
      () => onServer(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(database)} WITH (FORCE)`)
    )
    return migrated(PostgresServer(Redacted.make(withDatabase(serverUrl, database)), { maxConnections: 4 }))
  }))
