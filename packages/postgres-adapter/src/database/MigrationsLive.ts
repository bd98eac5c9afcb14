import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { migrations } from "../migrations/index.ts"
import type { DatabaseSharing } from "./DatabaseSharing.ts"

/**
 * Applies the pending migrations when built; several instances starting together are safe (the
 * migrator locks its table). PgMigrator asks for a process spawner, a file system and paths, which
 * it only uses to dump the schema with `pg_dump` when given a `schemaDirectory`; we give none,
 * but the types still require the services, so the Node ones are provided.
 */
export const MigrationsLive = PgMigrator.layer({ loader: migrations }).pipe(Layer.provide(NodeServices.layer))

/** A database layer (its client, and whether it is shared) whose schema is migrated before anything uses it. */
export const migrated = <E, R>(database: Layer.Layer<PgClient.PgClient | SqlClient | DatabaseSharing, E, R>) =>
  MigrationsLive.pipe(Layer.provideMerge(database))
