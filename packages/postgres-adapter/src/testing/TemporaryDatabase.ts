import { randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { serverAnswers } from "./serverAnswers.ts"
import { testServerUrl } from "./testServerUrl.ts"

/** A database of its own on a PostgreSQL server, empty (no migration) until someone uses it. */
export interface TemporaryDatabase {
  readonly name: string
  /** Its URL on the server. */
  readonly url: string
  /** Its URL with the server's host and port replaced: to reach it through a proxy, say. */
  readonly urlVia: (host: string, port: number) => string
  readonly server: { readonly host: string; readonly port: number }
  /** Drops it; `WITH (FORCE)` ends any connection still open (a server that was not stopped cleanly). */
  readonly drop: () => Promise<void>
}

export interface TemporaryDatabaseOptions {
  /** The start of its name, before a random part: `club_test` unless given. */
  readonly prefix?: string
}

/** Runs one statement on the server's maintenance database, over a connection of its own. */
const onServer = (serverUrl: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.runPromise(
    SqlClient.SqlClient.use(statement).pipe(
      Effect.provide(
        PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, connectTimeout: Duration.seconds(5) })
      ),
      Effect.timeout(Duration.seconds(30)),
      Effect.orDie,
      Effect.asVoid
    )
  )

const withHostAndDatabase = (
  serverUrl: string,
  database: string,
  host?: { readonly host: string; readonly port: number }
) => {
  const url = new URL(serverUrl)
  if (host !== undefined) {
    url.hostname = host.host
    url.port = String(host.port)
  }
  url.pathname = `/${database}`
  return url.toString()
}

/**
 * Creates a new empty database `<prefix>_<random>` on the PostgreSQL server at `serverUrl`, for one
 * suite or one run; fails when the server cannot create it. The one way the workspace makes a
 * temporary database: the tests, `TemporaryServerDatabase` and the bench all come here.
 */
export const createTemporaryDatabase = async (
  serverUrl: string,
  options: TemporaryDatabaseOptions = {}
): Promise<TemporaryDatabase> => {
  const name = `${options.prefix ?? "club_test"}_${randomBytes(6).toString("hex")}`
  await onServer(serverUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`)
  const parsed = new URL(serverUrl)
  let dropped: Promise<void> | undefined
  return {
    name,
    url: withHostAndDatabase(serverUrl, name),
    urlVia: (host, port) => withHostAndDatabase(serverUrl, name, { host, port }),
    server: { host: parsed.hostname, port: Number(parsed.port || 5432) },
    drop: () => (dropped ??= onServer(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
  }
}

/**
 * A temporary database on the tests' PostgreSQL server (`testServerUrl`: TEST_DATABASE_URL, or the
 * local default), or undefined where none is configured or none answers: the caller skips what
 * needs one.
 */
export const temporaryTestDatabase = async (
  options: TemporaryDatabaseOptions = {}
): Promise<TemporaryDatabase | undefined> => {
  const serverUrl = testServerUrl()
  if (serverUrl === undefined || !(await Effect.runPromise(serverAnswers(serverUrl)))) return undefined
  return createTemporaryDatabase(serverUrl, options)
}
