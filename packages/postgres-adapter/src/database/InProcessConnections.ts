import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const sslRequestCode = 80877103
const cancelRequestCode = 80877102
const protocolVersion3 = 196608
/** The Terminate message's type, `X`. */
const terminate = 0x58

/** ReadyForQuery's type, `Z`: the backend has finished what it was sent and waits for more. */
const readyForQuery = 0x5a
/** ReadyForQuery's status outside a transaction block. */
const idleStatus = 0x49
/** A Sync message: ends an extended-protocol exchange, whatever state it left. */
const sync = Buffer.from([0x53, 0, 0, 0, 4])

interface Queued {
  readonly connection: Connection
  readonly message: Uint8Array
}

/**
 * Connections to PGlite inside this process, for a PostgreSQL driver that takes a stream
 * (`@effect/sql-pg`'s `stream` option): the protocol's bytes go straight to the backend, with no
 * socket that another client could open (docs/decisions/0204-the-embedded-database-has-no-socket.md).
 *
 * PGlite is one backend, so the messages of all connections run one by one. A connection owns the
 * backend from its first message until the backend's ReadyForQuery says it is idle: a statement's
 * Parse…Sync, a pipeline's failed statement skipped to its Sync, and a transaction block are never
 * cut by another connection's messages, which wait in arrival order. A connection that closes while
 * it owns the backend has its exchange ended (a Sync) and its transaction rolled back. pglite-socket
 * keeps a transaction to its connection the same way; its queue is not exported.
 */
export class InProcessConnections {
  readonly #db: PGlite
  #queue: Array<Queued> = []
  #running = false
  /** Settles when the messages being run are done; `close` waits for it. */
  #idle: Promise<void> = Promise.resolve()
  #closed = false
  /** The connection the backend is busy with, until a ReadyForQuery whose status is idle. */
  #owner: Connection | undefined

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

  /** Drops what a closed connection left queued; if it owned the backend, the backend is freed before the next message runs. */
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
    this.#idle = this.#runQueued()
  }

  /**
   * Runs messages until none can run. `#running` is cleared in the same step as that is found (the
   * `finally` of this function, not a callback on its promise): the driver writes its next message
   * from its own microtasks after a ReadyForQuery, and a message written while `#running` was still
   * set, one step too late, found the loop running and waited for ever.
   */
  async #runQueued(): Promise<void> {
    try {
      for (;;) {
        if (this.#closed) return
        if (this.#owner?.destroyed === true) {
          await this.#free()
          continue
        }
        const queued = this.#next()
        if (queued === undefined) return
        await this.#execute(queued)
      }
    } finally {
      this.#running = false
    }
  }

  async #execute({ connection, message }: Queued): Promise<void> {
    this.#owner = connection
    const watch = new ReadyForQueryWatch()
    try {
      await this.#db.runExclusive(() =>
        this.#db.execProtocolRawStream(message, {
          onRawData: (data) => {
            if (watch.read(data)) this.#owner = undefined
            // A view into PGlite's memory, reused by its next message: copied before it is queued.
            connection.answer(Buffer.from(data))
          }
        })
      )
    } catch (error) {
      connection.destroy(error instanceof Error ? error : new Error(String(error)))
    }
  }

  /** Ends the exchange and the transaction a closed connection left open on the backend. */
  async #free(): Promise<void> {
    this.#owner = undefined
    await this.#db.runExclusive(() => this.#db.execProtocolRawStream(sync, { onRawData: () => undefined }))
      .catch(() => undefined)
    if (this.#db.isInTransaction()) await this.#db.exec("ROLLBACK").catch(() => undefined)
  }

  #next(): Queued | undefined {
    const owner = this.#owner
    if (owner === undefined) return this.#queue.shift()
    const index = this.#queue.findIndex((queued) => queued.connection === owner)
    return index === -1 ? undefined : this.#queue.splice(index, 1)[0]
  }
}

/**
 * Reads the backend's answers to one message for a ReadyForQuery, across chunks: `read` is true
 * when a chunk ends an answer that said the backend is idle (not in a transaction block).
 */
class ReadyForQueryWatch {
  /** The bytes of a message header (type and length) not complete yet. */
  #header: Array<number> = []
  /** Bytes of the current message's body still to skip. */
  #skip = 0
  /** The current message is a ReadyForQuery whose status byte is next. */
  #statusNext = false
  /** The status of the last ReadyForQuery read, if one was. */
  #ready: number | undefined

  read(data: Uint8Array): boolean {
    this.#ready = undefined
    let at = 0
    while (at < data.length) {
      if (this.#statusNext) {
        this.#ready = data[at]!
        this.#statusNext = false
        this.#skip--
        at++
      } else if (this.#skip > 0) {
        const skipped = Math.min(this.#skip, data.length - at)
        this.#skip -= skipped
        at += skipped
      } else {
        this.#header.push(data[at]!)
        at++
        if (this.#header.length === 5) {
          const [type, a, b, c, d] = this.#header as [number, number, number, number, number]
          this.#header = []
          this.#skip = ((a << 24) | (b << 16) | (c << 8) | d) - 4
          this.#statusNext = type === readyForQuery && this.#skip > 0
        }
      }
    }
    return this.#ready === idleStatus
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
