import { mkdir } from "node:fs/promises"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { DatabaseSharing } from "./DatabaseSharing.ts"

export interface EmbeddedPostgresOptions {
  /** The folder that holds the database (created when missing), or `memory://` to keep nothing. */
  readonly dataDir: string
  /** A `PGlite.dumpDataDir` archive to start from instead of creating a new cluster; only for a new database. */
  readonly startFrom?: Blob | undefined
}

export const inMemory = "memory://"

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
      if (dataDir !== inMemory) await mkdir(dataDir, { recursive: true })
      return PGlite.create(dataDir, startFrom === undefined ? {} : { loadDataDir: startFrom })
    }),
    // Closing flushes PGlite's files, so the folder stays a consistent database.
    (db) => Effect.promise(() => db.close())
  )

const serveOnLoopback = (db: PGlite) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: socketServerConnections })
      await server.start()
      return server
    }),
    (server) => Effect.promise(() => server.stop())
  )

/**
 * Embedded PostgreSQL (PGlite, in WASM, in this process) reached through the same driver as a real
 * server, over a loopback socket on a free port. Release runs in reverse order of acquisition:
 * the pool closes, then the socket server stops, then PGlite closes. Only this process can open
 * its files, so no other process writes to it: it is exclusive.
 */
export const EmbeddedPostgres = (options: EmbeddedPostgresOptions) =>
  Layer.unwrap(Effect.gen(function*() {
    const db = yield* openPGlite(options)
    const server = yield* serveOnLoopback(db)
    const client = PgClient.layer({
      url: Redacted.make(`postgres://postgres@${server.getServerConn()}/postgres`),
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
