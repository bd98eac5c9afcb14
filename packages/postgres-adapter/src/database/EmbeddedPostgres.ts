import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { DatabaseSharing } from "./DatabaseSharing.ts"
import { ownerOnlyFolder, restrictToOwner } from "./ownerOnly.ts"

export interface EmbeddedPostgresOptions {
  /** The folder that holds the database (created when missing), or `memory://` to keep nothing. */
  readonly dataDir: string
  /** A `PGlite.dumpDataDir` archive to start from instead of creating a new cluster; only for a new database. */
  readonly startFrom?: Blob | undefined
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
 * PGlite is a single PostgreSQL backend. pglite-socket lets several connections share it by queueing
 * their protocol messages one by one, so outside an explicit transaction the Parse/Bind/Execute
 * messages of two connections can interleave and overwrite each other's unnamed portal. One pooled
 * connection rules that out, and costs no throughput since the backend runs one query at a time.
 */
const poolSize = 1
/** One spare slot, so that a connection the pool replaces can reconnect before the server has seen the old one close. */
const socketServerConnections = poolSize + 1

const openPGlite = ({ dataDir, startFrom }: EmbeddedPostgresOptions) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (dataDir !== inMemory) await ownerOnlyFolder(dataDir)
      const db = await PGlite.create(dataDir, startFrom === undefined ? {} : { loadDataDir: startFrom })
      // A new cluster is copied from PGlite's image with its modes; PostgreSQL's own files are private already.
      if (dataDir !== inMemory) await restrictToOwner(dataDir)
      return db
    }),
    // Closing flushes PGlite's files, so the folder stays a consistent database.
    (db) => Effect.promise(() => db.close())
  )

/**
 * A folder of this process's own (0700, under the system's temporary folder) for the socket: only
 * this user can reach a socket inside it. Removed, socket and all, when the database closes.
 */
const privateSocketFolder = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "club-pglite-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

/**
 * The database speaks the PostgreSQL protocol on a Unix socket in a private folder, not on a TCP
 * port: PGlite has no authentication (every connection is its superuser), so anything that could
 * connect could read the password hashes or make itself an admin. A loopback port is open to every
 * local account and to any service on the host that can be made to connect to localhost; a socket
 * in a folder only this user may enter is open to this user alone.
 */
const serveOnPrivateSocket = (db: PGlite) =>
  Effect.gen(function*() {
    const path = join(yield* privateSocketFolder, ".s.PGSQL.5432")
    yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const server = new PGLiteSocketServer({ db, path, maxConnections: socketServerConnections })
        await server.start()
        return server
      }),
      (server) => Effect.promise(() => server.stop())
    )
    return path
  })

/**
 * Embedded PostgreSQL (PGlite, in WASM, in this process) reached through the same driver as a real
 * server, over a private Unix socket. Release runs in reverse order of acquisition: the pool
 * closes, then the socket server stops and its folder goes, then PGlite closes. Only this process
 * can open its files, so no other process writes to it: it is exclusive.
 */
export const EmbeddedPostgres = (options: EmbeddedPostgresOptions) =>
  Layer.unwrap(Effect.gen(function*() {
    const db = yield* openPGlite(options)
    const path = yield* serveOnPrivateSocket(db)
    const client = PgClient.layer({
      path,
      username: "postgres",
      database: "postgres",
      maxConnections: poolSize,
      // An interrupted query (a client gone) is otherwise cancelled: PGlite ignores the cancel, and
      // the driver replaces the connection, whose successor then finds every server slot taken
      // until the old one has drained; requests failed meanwhile (bench, embedded scenarios).
      // Multiplexed, an interrupted query runs to its end on the same connection, and queries of
      // concurrent requests are pipelined on it instead of waiting for it in turn.
      multiplex: true
    })
    return Layer.merge(client, DatabaseSharing.exclusive)
  }))
