import type { PgClient } from "@effect/sql-pg"
import { Effect, type Layer } from "effect"
import type { Migrator, SqlClient, SqlError } from "effect/sql"
import type { DatabaseSharing } from "../database/DatabaseSharing.ts"
import { EmbeddedTestDatabase } from "./EmbeddedTestDatabase.ts"
import { serverAnswers } from "./serverAnswers.ts"
import { TemporaryServerDatabase } from "./TemporaryServerDatabase.ts"
import { testServerUrl } from "./testServerUrl.ts"

export interface TestDatabase {
  /** For test titles; never shows a password. */
  readonly name: string
  /** False when the server does not answer: its suite is skipped rather than failed. */
  readonly available: boolean
  /** A fresh migrated database per build of the layer. */
  readonly layer: Layer.Layer<
    PgClient.PgClient | SqlClient.SqlClient | DatabaseSharing,
    SqlError.SqlError | Migrator.MigrationError
  >
}

const describeServer = (url: string): string => {
  const parsed = new URL(url)
  return `PostgreSQL server ${parsed.host}`
}

/**
 * The databases every repository test runs on: embedded PGlite (always), and a temporary database
 * on the test PostgreSQL server (when it answers). Use with `describe.skipIf(!db.available)`.
 */
export const testDatabases = async (): Promise<ReadonlyArray<TestDatabase>> => {
  const embedded: TestDatabase = { name: "embedded PGlite", available: true, layer: EmbeddedTestDatabase }
  const url = testServerUrl()
  if (url === undefined) return [embedded]
  const available = await Effect.runPromise(serverAnswers(url))
  return [embedded, { name: describeServer(url), available, layer: TemporaryServerDatabase(url) }]
}
