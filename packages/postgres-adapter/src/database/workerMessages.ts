/**
 * What the server's thread and the embedded database's worker thread (`pgliteWorker.ts`) tell each
 * other. Protocol bytes travel in ArrayBuffers that are transferred, not copied.
 */

/** What the worker is started to do, as its `workerData`. */
export type WorkerTask =
  /**
   * Create a new cluster and end: in a folder, its files stay there; in memory, its dump is sent
   * back. The serving worker then opens it without PGlite's initdb and second instance.
   */
  | {
    readonly task: "create"
    readonly dataDir: string
    readonly inMemory: boolean
    readonly settings: ReadonlyArray<string>
  }
  /** Open the database and run the connections' messages until told to close. */
  | {
    readonly task: "serve"
    readonly dataDir: string
    readonly settings: ReadonlyArray<string>
    /** A `PGlite.dumpDataDir` archive to start from, for a new database only. */
    readonly startFrom: ArrayBuffer | undefined
  }

/** From the server's thread to the serving worker. */
export type ToWorker =
  /** Complete protocol messages of one connection, in the order it wrote them: views of one transferred buffer. */
  | { readonly type: "messages"; readonly connection: number; readonly messages: ReadonlyArray<Uint8Array> }
  /** The connection is gone: nothing more comes from it, and the backend is freed of it. */
  | { readonly type: "closed"; readonly connection: number }
  /** Refuse new messages, finish the one running, close PGlite. */
  | { readonly type: "close" }

/** From a worker to the server's thread. */
export type FromWorker =
  /** The database is open (serve), or the cluster is created (create; `dump` in memory). */
  | { readonly type: "ready"; readonly dump?: ArrayBuffer | undefined }
  /** Answer bytes for a connection, in the order the backend wrote them. */
  | { readonly type: "answer"; readonly connection: number; readonly data: ArrayBuffer }
  /** The connection cannot go on (its message failed, or the database is closing): end it with this reason. */
  | { readonly type: "failed"; readonly connection: number; readonly reason: string }
  /** PGlite is closed and its files flushed: the worker may end. */
  | { readonly type: "closed" }
