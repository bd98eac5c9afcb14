import type { PGlite } from "@electric-sql/pglite"

/** ReadyForQuery's type, `Z`: the backend has finished what it was sent and waits for more. */
const readyForQuery = 0x5a
/** ReadyForQuery's status outside a transaction block. */
const idleStatus = 0x49
/** A Sync message: ends an extended-protocol exchange, whatever state it left. */
const sync = new Uint8Array([0x53, 0, 0, 0, 4])

/** Where the queue sends what the backend says to each connection, by the connection's number. */
export interface Replies {
  /** Answer bytes, in a buffer of their own that the receiver may keep. */
  readonly answer: (connection: number, data: Uint8Array) => void
  readonly failed: (connection: number, reason: string) => void
}

interface Queued {
  readonly connection: number
  readonly message: Uint8Array
}

/**
 * The messages of every connection to PGlite, run one by one on its one backend, inside the
 * embedded database's worker thread (docs/decisions/0204-the-embedded-database-has-no-socket.md,
 * 0231-the-embedded-database-runs-in-a-worker-thread.md).
 *
 * A connection owns the backend from its first message until the backend's ReadyForQuery says it
 * is idle: a statement's Parse…Sync, a pipeline's failed statement skipped to its Sync, and a
 * transaction block are never cut by another connection's messages, which wait in arrival order.
 * A connection that closes while it owns the backend has its exchange ended (a Sync) and its
 * transaction rolled back; what it left queued is dropped. pglite-socket keeps a transaction to its
 * connection the same way; its queue is not exported.
 */
export class BackendQueue {
  readonly #db: PGlite
  readonly #replies: Replies
  #queue: Array<Queued> = []
  #running = false
  /** Settles when the messages being run are done; `close` waits for it. */
  #idle: Promise<void> = Promise.resolve()
  #closing = false
  /** The connection the backend is busy with, until a ReadyForQuery whose status is idle. */
  #owner: number | undefined
  /** The owner, once it has closed: the backend is freed of it before the next message runs. */
  #ownerGone: number | undefined

  constructor(db: PGlite, replies: Replies) {
    this.#db = db
    this.#replies = replies
  }

  enqueue(connection: number, messages: ReadonlyArray<Uint8Array>): void {
    if (this.#closing) return this.#replies.failed(connection, "The embedded database is closed")
    for (const message of messages) this.#queue.push({ connection, message })
    this.#run()
  }

  /** Drops what a closed connection left queued; if it owns the backend, the backend is freed before the next message runs. */
  closed(connection: number): void {
    this.#queue = this.#queue.filter((queued) => queued.connection !== connection)
    if (this.#owner === connection) this.#ownerGone = connection
    this.#run()
  }

  /** Refuses new messages and waits for the one running: then PGlite can close. */
  async close(): Promise<void> {
    this.#closing = true
    const refused = new Set(this.#queue.splice(0).map((queued) => queued.connection))
    for (const connection of refused) this.#replies.failed(connection, "The embedded database is closed")
    await this.#idle
  }

  #run(): void {
    if (this.#running || this.#closing) return
    this.#running = true
    this.#idle = this.#runQueued()
  }

  /**
   * Runs messages until none can run. `#running` is cleared in the same step as that is found (the
   * `finally` of this function, not a callback on its promise): a message that arrives in the step
   * between finding the queue empty and saying so, one step too late, found the loop running and
   * waited for ever.
   */
  async #runQueued(): Promise<void> {
    try {
      for (;;) {
        if (this.#closing) return
        if (this.#owner !== undefined && this.#owner === this.#ownerGone) {
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
            // A view into PGlite's memory, reused by its next message: copied into a buffer of its own.
            this.#replies.answer(connection, data.slice())
          }
        })
      )
    } catch (error) {
      this.#replies.failed(connection, error instanceof Error ? error.message : String(error))
    }
  }

  /** Ends the exchange and the transaction a closed connection left open on the backend. */
  async #free(): Promise<void> {
    this.#owner = undefined
    this.#ownerGone = undefined
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
