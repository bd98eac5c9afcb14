import { EmbeddedPostgres, migrated } from "@club/postgres-adapter"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Seeded } from "./seed.ts"

/**
 * Creates the embedded database the server will open (the `postgres` folder inside its DATA_DIR),
 * migrates it with the project's own migrations and seeds it, in this process; the server then
 * starts on it as on any existing data directory. PGlite admits one process at a time, and the
 * server keeps its copy on a port of its own, so seeding through the server would go by the API.
 */
export const seedEmbedded = (
  postgresDir: string,
  seedData: (sql: SqlClient.SqlClient) => Effect.Effect<Seeded, unknown>
): Promise<Seeded> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* seedData(sql)
    }).pipe(Effect.provide(migrated(EmbeddedPostgres({ dataDir: postgresDir }))), Effect.scoped, Effect.orDie)
  )
