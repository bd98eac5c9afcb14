import { PgClient } from "@effect/sql-pg"
import type { Redacted } from "effect"

export interface PostgresServerOptions {
  readonly maxConnections?: number
}

/** A PostgreSQL server given by its `postgres://` URL. */
export const PostgresServer = (url: Redacted.Redacted<string>, options: PostgresServerOptions = {}) =>
  PgClient.layer({ url, maxConnections: options.maxConnections ?? 10 })
