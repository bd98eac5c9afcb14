import { EmbeddedPostgres, inMemory } from "../database/EmbeddedPostgres.ts"
import { migrated } from "../database/MigrationsLive.ts"

/**
 * A fresh, migrated, in-memory embedded database, discarded when the layer is released. It starts
 * from the build's fresh cluster, as every new embedded database does.
 */
export const EmbeddedTestDatabase = migrated(EmbeddedPostgres({ dataDir: inMemory }))
