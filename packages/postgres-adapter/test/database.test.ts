import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CoachCreate, CoachRepository } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPostgres, embeddedDataDir, inMemory } from "../src/database/EmbeddedPostgres.ts"
import { migrated } from "../src/database/MigrationsLive.ts"
import { pingDatabase } from "../src/database/pingDatabase.ts"
import { PostgresServer } from "../src/database/PostgresServer.ts"
import { migrations } from "../src/migrations/index.ts"
import { RepositoriesLive } from "../src/RepositoriesLive.ts"
import { serverAnswers, TemporaryServerDatabase, testServerUrl } from "../src/testing/index.ts"

const serverUrl = testServerUrl()
const serverAvailable = serverUrl !== undefined && await Effect.runPromise(serverAnswers(serverUrl))

const VersionRow = Schema.Array(Schema.Struct({ version: Schema.String }))
const serverVersion = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Schema.decodeUnknownEffect(VersionRow)(yield* sql`SELECT version() AS version`)
  return row?.version ?? ""
})

/** How many migrations the adapter declares: a migrated database has applied each once. */
const declaredMigrations = (await Effect.runPromise(migrations)).length

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
  // Which of the two a server uses, from its configuration, is the server's (apps/server, Database.ts).
  it.live(
    "embedded PostgreSQL in a data directory's own folder (created when missing), migrated, kept across restarts",
    () =>
      Effect.gen(function*() {
        const parent = mkdtempSync(join(tmpdir(), "club-data-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(parent, { recursive: true, force: true })))
        const dataDir = join(parent, "not-yet-there")
        const app = RepositoriesLive.pipe(
          Layer.provideMerge(migrated(EmbeddedPostgres({ dataDir: embeddedDataDir(dataDir) })))
        )

        const coach = yield* Effect.gen(function*() {
          expect(yield* serverVersion).toContain("PGlite")
          expect(yield* appliedMigrations).toBe(declaredMigrations)
          yield* pingDatabase
          return yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "persisted" }))
        }).pipe(Effect.provide(app))

        expect(existsSync(join(dataDir, "postgres", "PG_VERSION"))).toBe(true)

        // A second start on the same folder finds the data, and nothing left to migrate.
        const reopened = yield* Effect.gen(function*() {
          expect(yield* appliedMigrations).toBe(declaredMigrations)
          return yield* (yield* CoachRepository).findById(coach.id)
        }).pipe(Effect.provide(app))
        expect(reopened).toEqual(Option.some(coach))
      }),
    120_000
  )

  it("a data directory's embedded database is its folder `postgres`; memory:// stays in memory", () => {
    expect(embeddedDataDir(inMemory)).toBe("memory://")
    expect(embeddedDataDir("/var/lib/club")).toBe("/var/lib/club/postgres")
  })

  it.live.skipIf(!serverAvailable)("a PostgreSQL server given by its URL", () =>
    Effect.gen(function*() {
      const version = yield* serverVersion.pipe(Effect.provide(PostgresServer(Redacted.make(serverUrl!))))
      expect(version).toMatch(/^PostgreSQL/u)
      expect(version).not.toContain("PGlite")
    }))

  it.live.skipIf(!serverAvailable)(
    "a temporary server database is migrated, then dropped on release",
    () =>
      Effect.gen(function*() {
        const name = yield* Effect.gen(function*() {
          expect(yield* appliedMigrations).toBe(declaredMigrations)
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
