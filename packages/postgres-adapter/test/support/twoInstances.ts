import type { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { DatabaseSharing } from "../../src/database/DatabaseSharing.ts"
import { PostgresServer } from "../../src/database/PostgresServer.ts"
import { RepositoriesLive } from "../../src/RepositoriesLive.ts"
import { serverAnswers, TemporaryServerDatabase, testServerUrl } from "../../src/testing/index.ts"

const serverUrl = testServerUrl()
/** Whether a PostgreSQL server answers at TEST_DATABASE_URL: the tests of two instances skip without one. */
export const serverAvailable = serverUrl !== undefined && await Effect.runPromise(serverAnswers(serverUrl))

/** B's connections carry this name, so that a test can find (or cut) B's connections and not A's. */
export const instanceB = "club-test-instance-b"

const instance = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DatabaseSharing, E>) =>
  RepositoriesLive.pipe(Layer.provideMerge(database))
export type InstanceServices = Layer.Success<ReturnType<typeof instance>>

/**
 * Two instances on one PostgreSQL database: two database layers, so two pools (and two credentials
 * caches and LISTENs), as two server processes have. A creates and migrates the database; B
 * connects to it as the second instance of a deployment does, with `maxConnectionsOfB`.
 */
export class Instances extends Context.Service<Instances, {
  readonly a: Context.Context<InstanceServices>
  readonly b: Context.Context<InstanceServices>
}>()("test/Instances") {}

export const instancesLive = (options: { readonly maxConnectionsOfB: number }) =>
  Layer.effect(
    Instances,
    Effect.gen(function*() {
      const a = yield* Layer.build(instance(TemporaryServerDatabase(serverUrl!)))
      const [row] = yield* Context.get(a, SqlClient.SqlClient)<{ name: string }>`SELECT current_database() AS name`
      const url = new URL(serverUrl!)
      url.pathname = `/${row!.name}`
      url.searchParams.set("application_name", instanceB)
      const b = yield* Layer.build(
        instance(PostgresServer(Redacted.make(url.toString()), { maxConnections: options.maxConnectionsOfB }))
      )
      return { a, b }
    })
  )
