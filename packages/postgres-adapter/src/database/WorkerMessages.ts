/**
 * What the server's thread and the embedded database's worker thread (`pgliteWorker.ts`) tell each
 * other. Protocol bytes travel in ArrayBuffers that are transferred, not copied.
 */

/** What the worker opens, as its `workerData`. */
export interface WorkerTask {
  readonly dataDir: string
  /** PostgreSQL's settings, as start parameters after PGlite's own. */
  readonly settings: ReadonlyArray<string>
  /** A gzipped `PGlite.dumpDataDir` archive (`readFreshCluster`'s) to start from, for a new database only. */
  readonly startFrom: ArrayBuffer | undefined
}

/** From the server's thread to the worker. */
export type ToWorker =
  /** Complete protocol messages of one connection, in the order it wrote them: views of one transferred buffer. */
  | { readonly type: "messages"; readonly connection: number; readonly messages: ReadonlyArray<Uint8Array> }
  /** The connection is gone: nothing more comes from it, and the backend is freed of it. */
  | { readonly type: "closed"; readonly connection: number }
  /** Refuse new messages, finish the one running, close PGlite. */
  | { readonly type: "close" }

/** From the worker to the server's thread. */
export type FromWorker =
  /** The database is open. */
  | { readonly type: "ready" }
  /** Answer bytes for a connection, in the order the backend wrote them. */
  | { readonly type: "answer"; readonly connection: number; readonly data: ArrayBuffer }
  /** The connection cannot go on (its message failed, or the database is closing): end it with this reason. */
  | { readonly type: "failed"; readonly connection: number; readonly reason: string }
  /** PGlite is closed and its files flushed: the worker may end. */
  | { readonly type: "closed" }
