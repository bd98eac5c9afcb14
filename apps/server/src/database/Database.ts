import {
  EmbeddedPostgres,
  embeddedDataDir,
  migrated,
  ownerOnlyFolder,
  PostgresServer,
  RepositoriesLive
} from "@club/postgres-adapter"
import { Effect, Layer, Option } from "effect"
import { AppConfig, isInMemory } from "../AppConfig.ts"

/** DATA_DIR and everything in it are its owner's only: it holds the database, its password hashes and the token secret. */
const privateDataDir = (dataDir: string) =>
  isInMemory(dataDir) ? Layer.empty : Layer.effectDiscard(Effect.promise(() => ownerOnlyFolder(dataDir)))

/**
 * DATABASE_URL's PostgreSQL server, or embedded PostgreSQL under DATA_DIR; migrated before
 * anything uses it. Closed (pool, then the embedded database) when the program's scope closes.
 * The one place where configuration chooses the database: the adapter offers the two layers and
 * reads no environment (docs/DECISIONS.md, "One database layer, configured by the server").
 */
export const DatabaseLive = Layer.unwrap(
  AppConfig.useSync((config) =>
    migrated(
      Option.match(config.databaseUrl, {
        onSome: (url) => PostgresServer(url),
        onNone: () =>
          EmbeddedPostgres({ dataDir: embeddedDataDir(config.dataDir) }).pipe(
            Layer.provide(privateDataDir(config.dataDir))
          )
      })
    )
  )
)

/** The SQL client and every repository port of core. */
export const PersistenceLive = RepositoriesLive.pipe(Layer.provideMerge(DatabaseLive))
