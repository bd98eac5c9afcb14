import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CoachCreate, CoachRepository } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DatabaseLive } from "../src/database/DatabaseLive.ts"
import { MigratedDatabaseLive } from "../src/database/MigratedDatabaseLive.ts"
import { pingDatabase } from "../src/database/pingDatabase.ts"
import { PostgresServer } from "../src/database/PostgresServer.ts"
import { RepositoriesLive } from "../src/repositories/RepositoriesLive.ts"
import { serverAnswers, TemporaryServerDatabase, testServerUrl } from "../src/testing/index.ts"

const serverUrl = testServerUrl()
const serverAvailable = serverUrl !== undefined && await Effect.runPromise(serverAnswers(serverUrl))

const withConfig = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromUnknown(env))

const VersionRow = Schema.Array(Schema.Struct({ version: Schema.String }))
const serverVersion = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Schema.decodeUnknownEffect(VersionRow)(yield* sql`SELECT version() AS version`)
  return row?.version ?? ""
})

const CountRow = Schema.Array(Schema.Struct({ count: Schema.Int }))
const appliedMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Schema.decodeUnknownEffect(CountRow)(
    yield* sql`SELECT count(*)::int AS count FROM effect_sql_migrations`
  )
  return row?.count ?? 0
})

// `it.live`: the pool and the socket server need the real clock.
describe("Database layers", () => {
  it.live(
    "without DATABASE_URL: embedded PostgreSQL under DATA_DIR, kept across restarts",
    () =>
      Effect.gen(function*() {
        const parent = mkdtempSync(join(tmpdir(), "club-data-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(parent, { recursive: true, force: true })))
        const dataDir = join(parent, "not-yet-there")
        const app = RepositoriesLive.pipe(
          Layer.provideMerge(MigratedDatabaseLive),
          Layer.provide(withConfig({ DATA_DIR: dataDir }))
        )

        const coach = yield* Effect.gen(function*() {
          expect(yield* serverVersion).toContain("PGlite")
          expect(yield* appliedMigrations).toBe(9)
          yield* pingDatabase
          return yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "persisted" }))
        }).pipe(Effect.provide(app))

        expect(existsSync(join(dataDir, "postgres", "PG_VERSION"))).toBe(true)

        // A second start on the same folder finds the data, and nothing left to migrate.
        const reopened = yield* Effect.gen(function*() {
          expect(yield* appliedMigrations).toBe(9)
          return yield* (yield* CoachRepository).findById(coach.id)
        }).pipe(Effect.provide(app))
        expect(reopened).toEqual(Option.some(coach))
      }),
    120_000
  )

  it.live.skipIf(!serverAvailable)("with DATABASE_URL: that PostgreSQL server", () =>
    Effect.gen(function*() {
      const version = yield* serverVersion.pipe(
        Effect.provide(
          DatabaseLive.pipe(Layer.provide(withConfig({ DATABASE_URL: serverUrl!, DATA_DIR: "memory://" })))
        )
      )
      expect(version).toMatch(/^PostgreSQL/u)
      expect(version).not.toContain("PGlite")
    }))

  it.live.skipIf(!serverAvailable)(
    "a temporary server database is migrated, then dropped on release",
    () =>
      Effect.gen(function*() {
        const name = yield* Effect.gen(function*() {
          expect(yield* appliedMigrations).toBe(9)
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ name: string }>`SELECT current_database() AS name`
          return row!.name
        }).pipe(Effect.provide(TemporaryServerDatabase(serverUrl!)))
        expect(name).toMatch(/^club_test_[0-9a-f]{12}$/u)

        const remaining = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql`SELECT 1 FROM pg_database WHERE datname = ${name}`
        }).pipe(Effect.provide(PostgresServer(Redacted.make(serverUrl!), { maxConnections: 1 })))
        expect(remaining).toEqual([])
      })
  )

  it.live("serverAnswers is false, without failing, when nothing listens", () =>
    Effect.gen(function*() {
      expect(yield* serverAnswers("postgres://postgres@127.0.0.1:1/postgres")).toBe(false)
    }))
})
