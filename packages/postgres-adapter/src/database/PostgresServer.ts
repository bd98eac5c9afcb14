import { PgClient } from "@effect/sql-pg"
import { Duration, Layer, type Redacted } from "effect"
import { DatabaseSharing } from "./DatabaseSharing.ts"

export interface PostgresServerOptions {
  /** The pool's size (default 10; at least 2, since one connection is held for LISTEN). */
  readonly maxConnections?: number
}

/**
 * How long opening a connection may take. A request that needs a new connection while the server
 * does not answer waits this long at most, then fails as unreachable (503, Connect `unavailable`),
 * rather than holding the caller; a refused or cut connection fails at once.
 */
export const connectTimeout = Duration.seconds(3)

/**
 * A PostgreSQL server given by its `postgres://` URL, shared with the other instances. The
 * repositories hold one connection of its pool for LISTEN (see `CredentialsCache.ts`).
 */
export const PostgresServer = (url: Redacted.Redacted<string>, options: PostgresServerOptions = {}) =>
  Layer.merge(
    PgClient.layer({ url, maxConnections: Math.max(2, options.maxConnections ?? 10), connectTimeout }),
    DatabaseSharing.shared
  )
