import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const sslRequestCode = 80877103
const cancelRequestCode = 80877102
const protocolVersion3 = 196608
/** The Terminate message's type, `X`. */
const terminate = 0x58

interface Queued {
  readonly connection: Connection
  readonly message: Uint8Array
}

/**
 * Connections to PGlite inside this process, for a PostgreSQL driver that takes a stream
 * (`@effect/sql-pg`'s `stream` option): the protocol's bytes go straight to the backend, with no
 * socket that another client could open (docs/DECISIONS.md, "The embedded database has no socket").
 *
 * PGlite is one backend, so the messages of all connections run one by one, in arrival order;
 * while a transaction is open, only its connection's messages run (others wait), and a connection
 * that closes inside its transaction has it rolled back. The same rules as pglite-socket's queue,
 * which is not exported.
 */
export class InProcessConnections {
  readonly #db: PGlite
  #queue: Array<Queued> = []
  #running = false
  /** Settles when the messages being run are done; `close` waits for it. */
  #idle: Promise<void> = Promise.resolve()
  #closed = false
  /** The connection whose message ran last: the owner of the transaction, if one is open. */
  #last: Connection | undefined

  constructor(db: PGlite) {
    this.#db = db
  }

  /** A new connection, as the driver's socket. */
  readonly open = (): Duplex => new Connection(this)

  enqueue(connection: Connection, message: Uint8Array): void {
    if (this.#closed) return void connection.destroy(new Error("The embedded database is closed"))
    this.#queue.push({ connection, message })
    this.#run()
  }

  /** Drops what a closed connection left queued; its open transaction is rolled back before the next message runs. */
  closed(connection: Connection): void {
    this.#queue = this.#queue.filter((queued) => queued.connection !== connection)
    this.#run()
  }

  /** Refuses new messages and waits for the one running: then PGlite can close. */
  async close(): Promise<void> {
    this.#closed = true
    for (const { connection } of this.#queue.splice(0)) connection.destroy()
    await this.#idle
  }

  #run(): void {
    if (this.#running || this.#closed) return
    this.#running = true
    this.#idle = this.#runQueued().finally(() => {
      this.#running = false
    })
  }

  async #runQueued(): Promise<void> {
    for (;;) {
      if (this.#closed) return
      if (this.#last?.destroyed === true) {
        this.#last = undefined
        if (this.#db.isInTransaction()) await this.#db.exec("ROLLBACK").catch(() => undefined)
        continue
      }
      const queued = this.#next()
      if (queued === undefined) return
      const { connection, message } = queued
      try {
        await this.#db.runExclusive(() =>
          this.#db.execProtocolRawStream(message, {
            // A view into PGlite's memory, reused by its next message: copied before it is queued.
            onRawData: (data) => connection.answer(Buffer.from(data))
          })
        )
        this.#last = connection
      } catch (error) {
        this.#last = connection
        connection.destroy(error instanceof Error ? error : new Error(String(error)))
      }
    }
  }

  #next(): Queued | undefined {
    if (this.#last !== undefined && this.#db.isInTransaction()) {
      const index = this.#queue.findIndex((queued) => queued.connection === this.#last)
      return index === -1 ? undefined : this.#queue.splice(index, 1)[0]
    }
    return this.#queue.shift()
  }
}

/** One client connection: the driver writes protocol messages, and reads the backend's answers. */
class Connection extends Duplex {
  readonly #connections: InProcessConnections
  #buffered: Buffer = Buffer.alloc(0)
  #started = false

  constructor(connections: InProcessConnections) {
    super()
    this.#connections = connections
  }

  answer(data: Buffer): void {
    if (!this.destroyed) this.push(data)
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk])
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
      this.#connections.enqueue(this, message)
    }
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
