import { PgClient } from "@effect/sql-pg"
import { Duration, type Redacted } from "effect"

export interface PostgresServerOptions {
  readonly maxConnections?: number
}

/**
 * How long opening a connection may take. A request that needs a new connection while the server
 * does not answer waits this long at most, then fails as unreachable (503, Connect `unavailable`),
 * rather than holding the caller; a refused or cut connection fails at once.
 */
export const connectTimeout = Duration.seconds(3)

/** A PostgreSQL server given by its `postgres://` URL. */
export const PostgresServer = (url: Redacted.Redacted<string>, options: PostgresServerOptions = {}) =>
  PgClient.layer({ url, maxConnections: options.maxConnections ?? 10, connectTimeout })
