import { EmbeddedPostgres, embeddedDataDir, migrated, PostgresServer, RepositoriesLive } from "@club/postgres-adapter"
import { Layer, Option } from "effect"
import { AppConfig } from "./AppConfig.ts"

/**
 * DATABASE_URL's PostgreSQL server, or embedded PostgreSQL under DATA_DIR; migrated before
 * anything uses it. Closed (pool, then the embedded database) when the program's scope closes.
 */
export const DatabaseLive = Layer.unwrap(
  AppConfig.useSync((config) =>
    migrated(
      Option.match(config.databaseUrl, {
        onSome: (url) => PostgresServer(url),
        onNone: () => EmbeddedPostgres({ dataDir: embeddedDataDir(config.dataDir) })
      })
    )
  )
)

/** The SQL client and every repository port of core. */
export const PersistenceLive = RepositoriesLive.pipe(Layer.provideMerge(DatabaseLive))
