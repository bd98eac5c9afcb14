import { existsSync } from "node:fs"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { DatabaseSharing } from "./DatabaseSharing.ts"
import { extractFreshCluster, readFreshCluster } from "./freshCluster.ts"
import { InProcessConnections } from "./InProcessConnections.ts"
import { ownerOnlyFolder, restrictToOwner } from "./ownerOnly.ts"

export interface EmbeddedPostgresOptions {
  /** The folder that holds the database (created when missing), or `memory://` to keep nothing. */
  readonly dataDir: string
}

/** PGlite's name for a database kept in memory only, nothing on disk; also what `DATA_DIR` takes for that. */
export const inMemory = "memory://"

/**
 * Where the embedded database of a server's data directory lives: a folder of its own inside it,
 * because the server keeps other files there (its generated token secret) and PostgreSQL wants a
 * data directory to itself. `memory://` stays `memory://`.
 */
export const embeddedDataDir = (dataDir: string): string => dataDir === inMemory ? inMemory : join(dataDir, "postgres")

/**
 * PGlite is a single PostgreSQL backend, whose connections share one session: the messages of two
 * connections outside an explicit transaction could interleave and overwrite each other's unnamed
 * portal. One pooled connection rules that out, and costs no throughput since the backend runs one
 * query at a time.
 */
const poolSize = 1

/**
 * PostgreSQL's settings for the embedded backend, after PGlite's own. Its shared buffers live in
 * PGlite's WASM memory, which is touched in full at start and never given back: PostgreSQL's
 * default (128MB) more than doubles the server's resident memory. A club's working set fits in
 * far fewer pages, and a page that misses them is read through the operating system's file cache.
 * docs/decisions/0230-embedded-database-memory.md.
 */
export const embeddedSettings: ReadonlyArray<string> = ["-c", "shared_buffers=16MB"]

/**
 * Opens PGlite in a worker thread and answers the connections to it; closing them closes PGlite,
 * which flushes its files, so the folder stays a consistent database. A new database starts from
 * the build's fresh cluster (`freshCluster.ts`).
 */
const startEmbedded = ({ dataDir }: EmbeddedPostgresOptions) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (dataDir !== inMemory && !existsSync(join(dataDir, "PG_VERSION"))) await extractFreshCluster(dataDir)
      if (dataDir !== inMemory) await ownerOnlyFolder(dataDir)
      const connections = await InProcessConnections.start({
        dataDir,
        settings: embeddedSettings,
        startFrom: dataDir === inMemory ? await readFreshCluster() : undefined
      })
      // PGlite writes the files it adds with the modes of its image (0666); PostgreSQL's own files are private already.
      if (dataDir !== inMemory) await restrictToOwner(dataDir)
      return connections
    }),
    (connections) => Effect.promise(() => connections.close())
  )

/**
 * Embedded PostgreSQL (PGlite, in WASM, in a worker thread of this process) reached through the
 * same driver as a real server, over connections inside the process: no socket, no port. PGlite has no authentication
 * (every connection is its superuser) and one session for all its connections, so any client that
 * could connect could read the password hashes, make itself an admin, or change the session's
 * settings (`search_path`) under the server's feet. Release runs in reverse order of acquisition:
 * the pool closes, then PGlite and its worker. Only this process can open its files, so no other process writes
 * to it: it is exclusive.
 */
export const EmbeddedPostgres = (options: EmbeddedPostgresOptions) =>
  Layer.unwrap(Effect.gen(function*() {
    const connections = yield* startEmbedded(options)
    const client = PgClient.layer({
      stream: connections.open,
      ssl: false,
      username: "postgres",
      database: "postgres",
      maxConnections: poolSize,
      // An interrupted query (a client gone) is otherwise cancelled: PGlite ignores the cancel, and
      // the driver replaces the connection; requests failed meanwhile (bench, embedded scenarios).
      // Multiplexed, an interrupted query runs to its end on the same connection, and queries of
      // concurrent requests are pipelined on it instead of waiting for it in turn.
      multiplex: true
    })
    return Layer.merge(client, DatabaseSharing.exclusive)
  }))
