import { join } from "node:path"
import { Config, Effect, Layer, Option } from "effect"
import { EmbeddedPostgres, inMemory } from "./EmbeddedPostgres.ts"
import { PostgresServer } from "./PostgresServer.ts"

/**
 * The embedded database keeps its files in a folder of its own inside `DATA_DIR`, because the
 * server keeps other files there (its generated token secret) and PostgreSQL wants a data
 * directory to itself.
 */
export const embeddedDataDir = (dataDir: string): string => dataDir === inMemory ? inMemory : join(dataDir, "postgres")

/**
 * `DATABASE_URL` set: that PostgreSQL server. Unset: embedded PostgreSQL stored under `DATA_DIR`
 * (default `./data`; `memory://` keeps nothing).
 */
export const DatabaseLive = Layer.unwrap(Effect.gen(function*() {
  const url = yield* Config.option(Config.Redacted("DATABASE_URL"))
  const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("./data"))
  return Option.match(url, {
    onSome: (url) => PostgresServer(url),
    onNone: () => EmbeddedPostgres({ dataDir: embeddedDataDir(dataDir) })
  })
}))
