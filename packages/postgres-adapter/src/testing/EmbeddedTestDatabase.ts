import { Effect, Layer } from "effect"
import { EmbeddedPostgres, inMemory } from "../database/EmbeddedPostgres.ts"
import { migrated } from "../database/MigrationsLive.ts"
import { freshClusterDump } from "./freshClusterDump.ts"

/** A fresh, migrated, in-memory embedded database, discarded when the layer is released. */
export const EmbeddedTestDatabase = Layer.unwrap(
  Effect.promise(freshClusterDump).pipe(
    Effect.map((dump) => migrated(EmbeddedPostgres({ dataDir: inMemory, startFrom: dump })))
  )
)
