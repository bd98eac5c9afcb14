import { Effect, Layer, Redacted } from "effect"
import { migrated } from "../database/MigrationsLive.ts"
import { PostgresServer } from "../database/PostgresServer.ts"
import { createTemporaryDatabase } from "./TemporaryDatabase.ts"

/**
 * A database of its own on the PostgreSQL server at `serverUrl`, for one test suite: created
 * (`createTemporaryDatabase`) and migrated when the layer is built, dropped when it is released.
 * The client pool closes first; the drop ends any connection still open.
 */
export const TemporaryServerDatabase = (serverUrl: string) =>
  Layer.unwrap(Effect.gen(function*() {
    const database = yield* Effect.acquireRelease(
      Effect.promise(() => createTemporaryDatabase(serverUrl)),
      (database) => Effect.promise(database.drop)
    )
    return migrated(PostgresServer(Redacted.make(database.url), { maxConnections: 4 }))
  }))
