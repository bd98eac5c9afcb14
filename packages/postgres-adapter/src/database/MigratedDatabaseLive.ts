import { DatabaseLive } from "./DatabaseLive.ts"
import { migrated } from "./MigrationsLive.ts"

/** The configured database (see DatabaseLive), migrated on start. */
export const MigratedDatabaseLive = migrated(DatabaseLive)
