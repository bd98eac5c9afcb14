import { Duplex } from "node:stream"
import { Worker } from "node:worker_threads"
import type { FromWorker, ToWorker, WorkerTask } from "./WorkerMessages.ts"

const sslRequestCode = 80877103
const cancelRequestCode = 80877102
const protocolVersion3 = 196608
/** The Terminate message's type, `X`. */
const terminate = 0x58

/**
 * The worker's script, beside this module and in its language: the TypeScript source when tests
 * run the source, the built JavaScript in `dist` otherwise.
 */
const workerScript = new URL(
  import.meta.url.endsWith(".ts") ? "./pgliteWorker.ts" : "./pgliteWorker.js",
  import.meta.url
)

export interface BackendOptions {
  /** A folder, or PGlite's `memory://`. */
  readonly dataDir: string
  /** PostgreSQL's settings, as start parameters after PGlite's own. */
  readonly settings: ReadonlyArray<string>
  /** A gzipped `PGlite.dumpDataDir` archive (`readFreshCluster`'s) to start from instead of creating a new cluster; only for a new database. */
  readonly startFrom?: ArrayBuffer | undefined
}

/** Starts the worker; answers it once it is ready, or the error that ended it first. */
const startWorker = (task: WorkerTask, transfer: ReadonlyArray<ArrayBuffer>) => {
  const worker = new Worker(workerScript, { workerData: task, transferList: [...transfer] })
  return new Promise<Worker>((resolve, reject) => {
    const stopped = (reason: unknown) => {
      worker.off("message", ready)
      reject(
        reason instanceof Error
          ? reason
          : new Error(`The embedded database's worker ended before it was ready (exit code ${String(reason)})`)
      )
    }
    const ready = (message: FromWorker) => {
      if (message.type !== "ready") return
      worker.off("message", ready).off("error", stopped).off("exit", stopped)
      resolve(worker)
    }
    worker.on("message", ready).once("error", stopped).once("exit", stopped)
  })
}

/**
 * Connections to the embedded database, for a PostgreSQL driver that takes a stream
 * (`@effect/sql-pg`'s `stream` option): the protocol's bytes go to PGlite in a worker thread and
 * its answers come back, with no socket that another client could open
 * (docs/decisions/0204-the-embedded-database-has-no-socket.md). The worker runs them one by one on
 * PGlite's one backend, each connection owning it from its first message to an idle ReadyForQuery
 * (`BackendQueue`), so that a long statement holds the worker and never this thread's event loop
 * (docs/decisions/0231-the-embedded-database-runs-in-a-worker-thread.md).
 */
export class InProcessConnections {
  readonly #worker: Worker
  readonly #connections = new Map<number, Connection>()
  #lastConnection = 0
  /** Why no message can run any more: the database is closing, or its worker stopped. */
  #ended: Error | undefined
  readonly #exited: Promise<void>

  /** Opens the database in a worker thread. */
  static async start(options: BackendOptions): Promise<InProcessConnections> {
    const startFrom = options.startFrom
    const worker = await startWorker(
      { dataDir: options.dataDir, settings: options.settings, startFrom },
      startFrom === undefined ? [] : [startFrom]
    )
    return new InProcessConnections(worker)
  }

  private constructor(worker: Worker) {
    this.#worker = worker
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()))
    let failure: Error | undefined
    worker.on("message", (message: FromWorker) => this.#receive(message))
    worker.on("error", (error) => failure = error)
    worker.on("exit", (code) => {
      if (this.#ended !== undefined) return
      // A defect: every connection fails at once, and so does each new one, so that a readiness
      // check says so instead of waiting.
      this.#end(
        new Error(`The embedded database's worker stopped (exit code ${code}${failure ? `: ${failure.message}` : ""})`)
      )
    })
  }

  /** A new connection, as the driver's socket. */
  readonly open = (): Duplex => {
    const connection = new Connection(this, ++this.#lastConnection)
    this.#connections.set(connection.id, connection)
    return connection
  }

  /** Sends complete messages of a connection to the worker: copied once into a buffer of their own, which is transferred. */
  send(connection: Connection, messages: ReadonlyArray<Buffer>): void {
    if (this.#ended !== undefined) return void connection.destroy(this.#ended)
    const bytes = new Uint8Array(messages.reduce((total, message) => total + message.length, 0))
    const views: Array<Uint8Array> = []
    let at = 0
    for (const message of messages) {
      bytes.set(message, at)
      views.push(bytes.subarray(at, at + message.length))
      at += message.length
    }
    this.#post({ type: "messages", connection: connection.id, messages: views }, [bytes.buffer])
  }

  closed(connection: Connection): void {
    if (this.#connections.delete(connection.id) && this.#ended === undefined) {
      this.#post({ type: "closed", connection: connection.id })
    }
  }

  /** Refuses new messages, lets the worker finish the one running and close PGlite (flushing its files), and waits for the worker to end. */
  async close(): Promise<void> {
    if (this.#ended === undefined) {
      this.#end(new Error("The embedded database is closed"))
      this.#post({ type: "close" })
    }
    await this.#exited
  }

  #post(message: ToWorker, transfer: ReadonlyArray<ArrayBuffer> = []): void {
    this.#worker.postMessage(message, [...transfer])
  }

  #receive(message: FromWorker): void {
    switch (message.type) {
      case "answer":
        return this.#connections.get(message.connection)?.answer(Buffer.from(message.data))
      case "failed":
        return void this.#connections.get(message.connection)?.destroy(new Error(message.reason))
      case "closed":
        return void this.#worker.terminate()
    }
  }

  #end(reason: Error): void {
    this.#ended = reason
    // Each connection leaves the map as it is destroyed; a Map's iteration goes on past deletions.
    for (const connection of this.#connections.values()) connection.destroy(reason)
  }
}

/** One client connection: the driver writes protocol messages, and reads the backend's answers. */
class Connection extends Duplex {
  readonly #connections: InProcessConnections
  readonly id: number
  #buffered: Buffer = Buffer.alloc(0)
  #started = false

  constructor(connections: InProcessConnections, id: number) {
    super()
    this.#connections = connections
    this.id = id
  }

  answer(data: Buffer): void {
    if (!this.destroyed) this.push(data)
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk])
    const messages: Array<Buffer> = []
    for (let message = this.#take(); message !== undefined; message = this.#take()) {
      if (!this.#started) {
        const code = message.readInt32BE(4)
        if (code === sslRequestCode) {
          this.push(Buffer.from("N"))
          continue
        }
        // A cancel request comes on a connection of its own; PGlite has no other backend to stop.
        if (code === cancelRequestCode) {
          this.push(null)
          continue
        }
        if (code === protocolVersion3) this.#started = true
      } else if (message[0] === terminate) {
        // The end of the connection, not a statement: PGlite's one backend stays, so it is not told.
        continue
      }
      messages.push(message)
    }
    if (messages.length > 0) this.#connections.send(this, messages)
    callback()
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.push(null)
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#connections.closed(this)
    callback(error)
  }

  /** The next complete message: before the start-up, a length and its bytes; after it, a type byte, a length and its bytes. */
  #take(): Buffer | undefined {
    const header = this.#started ? 1 : 0
    if (this.#buffered.length < header + 4) return undefined
    const length = header + this.#buffered.readInt32BE(header)
    if (this.#buffered.length < length) return undefined
    const message = this.#buffered.subarray(0, length)
    this.#buffered = this.#buffered.subarray(length)
    return message
  }
}
