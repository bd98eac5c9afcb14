import { testServerUrl } from "@club/postgres-adapter/testing"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"

/** Runs one statement on the server's maintenance database; false when no server answers. */
const onServer = (serverUrl: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.runPromise(
    SqlClient.SqlClient.use(statement).pipe(
      Effect.provide(
        PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, connectTimeout: Duration.seconds(3) })
      ),
      Effect.timeout(Duration.seconds(5)),
      Effect.as(true),
      Effect.catchCause(() => Effect.succeed(false))
    )
  )

export interface TemporaryDatabase {
  /** The database's URL with the server's host and port replaced, e.g. to go through a proxy. */
  readonly urlVia: (host: string, port: number) => string
  readonly server: { readonly host: string; readonly port: number }
  readonly drop: () => Promise<void>
}

/**
 * A new empty database `club_test_<random>` on the test PostgreSQL server (TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres); undefined when no server answers there.
 */
export const createTemporaryDatabase = async (): Promise<TemporaryDatabase | undefined> => {
  const serverUrl = testServerUrl()
  if (serverUrl === undefined) return undefined
  const name = `club_test_${randomBytes(6).toString("hex")}`
  const created = await onServer(serverUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`)
  if (!created) return undefined
  const parsed = new URL(serverUrl)
  return {
    server: { host: parsed.hostname, port: Number(parsed.port || 5432) },
    urlVia: (host, port) => {
      const url = new URL(serverUrl)
      url.hostname = host
      url.port = String(port)
      url.pathname = `/${name}`
      return url.toString()
    },
    drop: () =>
      onServer(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`).then(() => undefined)
  }
}
