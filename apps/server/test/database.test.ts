import { existsSync } from "node:fs"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CoachCreate, CoachRepository } from "@club/core"
import { migrations as migrationLoader } from "@club/postgres-adapter"
import { serverAnswers, temporaryTestDatabase, testServerUrl } from "@club/postgres-adapter/testing"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../src/AppConfig.ts"
import { PersistenceLive } from "../src/database/Database.ts"

const serverUrl = testServerUrl()
const serverAvailable = serverUrl !== undefined && await Effect.runPromise(serverAnswers(serverUrl))

/** The server's persistence as configured by `env` alone (not the process environment). */
const persistence = (env: Record<string, string>) =>
  PersistenceLive.pipe(
    Layer.provide(AppConfig.layer),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
  )

/** How many migrations the adapter declares: a migrated database has applied each once. */
const declaredMigrations = (await Effect.runPromise(migrationLoader)).length

const Row = Schema.Array(Schema.Struct({ version: Schema.String, migrations: Schema.Int }))
const versionAndMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Schema.decodeUnknownEffect(Row)(
    yield* sql`SELECT version() AS version, (SELECT count(*)::int FROM effect_sql_migrations) AS migrations`
  )
  return row!
})

// `it.live`: the pool and the socket server need the real clock.
describe("the server's database, from DATABASE_URL and DATA_DIR", () => {
  it.live(
    "without DATABASE_URL: embedded PostgreSQL in DATA_DIR/postgres, DATA_DIR its owner's only, migrated",
    () =>
      Effect.gen(function*() {
        const parent = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "club-data-")))
        yield* Effect.addFinalizer(() => Effect.promise(() => rm(parent, { recursive: true, force: true })))
        const dataDir = join(parent, "not-yet-there")

        yield* Effect.gen(function*() {
          const { version, migrations } = yield* versionAndMigrations
          expect(version).toContain("PGlite")
          expect(migrations).toBe(declaredMigrations)
          yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "stored" }))
        }).pipe(Effect.provide(persistence({ DATA_DIR: dataDir })))

        expect(existsSync(join(dataDir, "postgres", "PG_VERSION"))).toBe(true)
        expect((yield* Effect.promise(() => stat(dataDir))).mode & 0o777).toBe(0o700)
      }),
    120_000
  )

  it.live("DATA_DIR=memory://: embedded PostgreSQL with nothing on disk", () =>
    Effect.gen(function*() {
      const { version, migrations } = yield* versionAndMigrations.pipe(
        Effect.provide(persistence({ DATA_DIR: "memory://" }))
      )
      expect(version).toContain("PGlite")
      expect(migrations).toBe(declaredMigrations)
      expect(existsSync("memory:")).toBe(false)
    }), 120_000)

  it.live.skipIf(!serverAvailable)("with DATABASE_URL: that PostgreSQL server, migrated", () =>
    Effect.gen(function*() {
      const database = yield* Effect.acquireRelease(
        Effect.promise(() => temporaryTestDatabase()),
        (created) => Effect.promise(async () => created?.drop())
      )
      expect(database).toBeDefined()
      const url = database!.urlVia(database!.server.host, database!.server.port)
      const { version, migrations } = yield* versionAndMigrations.pipe(
        Effect.provide(persistence({ DATABASE_URL: url, DATA_DIR: "memory://" }))
      )
      expect(version).toMatch(/^PostgreSQL/u)
      expect(version).not.toContain("PGlite")
      expect(migrations).toBe(declaredMigrations)
    }), 60_000)
})
