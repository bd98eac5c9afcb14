import type { Duplex } from "node:stream"
import { Worker } from "node:worker_threads"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { embeddedSettings, inMemory } from "../src/database/EmbeddedPostgres.ts"
import { InProcessConnections } from "../src/database/InProcessConnections.ts"
import { readFreshCluster } from "../src/database/freshCluster.ts"

/**
 * The wire protocol spoken by hand on `InProcessConnections`, so that each test decides exactly
 * which messages are sent, on which connection, and when. Only the embedded database has these
 * connections; `pipelinedStatements.test.ts` runs the driver's side of the same cases on both
 * databases.
 */

interface Message {
  readonly type: string
  readonly body: Buffer
}

const int32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeInt32BE(value)
  return bytes
}
const cString = (text: string) => Buffer.from(`${text}\0`)
const message = (type: string, ...parts: Array<Buffer>) => {
  const body = Buffer.concat(parts)
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body])
}
const startup = () => {
  const body = Buffer.concat([
    int32(196608),
    cString("user"),
    cString("postgres"),
    cString("database"),
    cString("postgres"),
    cString("")
  ])
  return Buffer.concat([int32(body.length + 4), body])
}
const query = (sql: string) => message("Q", cString(sql))
/** Parse, Bind, Execute of an unnamed statement without parameters, without the Sync. */
const extended = (sql: string) =>
  Buffer.concat([
    message("P", cString(""), cString(sql), Buffer.from([0, 0])),
    message("B", cString(""), cString(""), Buffer.from([0, 0, 0, 0, 0, 0])),
    message("E", cString(""), int32(0))
  ])
const syncMessage = message("S")

/** A client on one connection: what it sent is answered in order, each answer up to a ReadyForQuery. */
class Client {
  readonly #stream: Duplex
  #received: Buffer = Buffer.alloc(0)
  readonly messages: Array<Message> = []
  #waiters: Array<() => void> = []
  /** Called in the data event that brought a ReadyForQuery, as the driver hears of it. */
  #onReady: (() => void) | undefined
  /** Settles when the connection is closed, with the error that closed it. */
  readonly closed: Promise<Error | undefined>

  constructor(stream: Duplex) {
    this.#stream = stream
    let error: Error | undefined
    stream.on("error", (cause: Error) => error = cause)
    this.closed = new Promise((resume) => stream.on("close", () => resume(error)))
    stream.on("data", (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk])
      while (this.#received.length >= 5 && this.#received.length >= 1 + this.#received.readInt32BE(1)) {
        const length = 1 + this.#received.readInt32BE(1)
        const type = String.fromCharCode(this.#received[0]!)
        this.messages.push({ type, body: this.#received.subarray(5, length) })
        this.#received = this.#received.subarray(length)
        if (type === "Z") this.#onReady?.()
      }
      for (const waiter of this.#waiters.splice(0)) waiter()
    })
  }

  write(bytes: Buffer): void {
    this.#stream.write(bytes)
  }

  /** Writes `bytes` `hops` microtasks after the next ReadyForQuery arrives. */
  writeAfterNextAnswer(hops: number, bytes: Buffer): void {
    this.#onReady = () => {
      this.#onReady = undefined
      const later = (left: number): void => left === 0 ? this.write(bytes) : queueMicrotask(() => later(left - 1))
      later(hops)
    }
  }

  destroy(): void {
    this.#stream.destroy()
  }

  /** The messages up to the next ReadyForQuery, waiting for them; taken, so the next call reads on. */
  async answers(): Promise<Array<Message>> {
    await this.#answered()
    return this.messages.splice(0, this.messages.findIndex((received) => received.type === "Z") + 1)
  }

  /** Whether an answer arrives within `ms`, leaving it to `answers`: for a connection that must wait. */
  async answersWithin(ms: number): Promise<boolean> {
    const timer = new Promise<false>((resume) => setTimeout(() => resume(false), ms))
    return Promise.race([this.#answered().then(() => true), timer])
  }

  async #answered(): Promise<void> {
    while (!this.messages.some((received) => received.type === "Z")) {
      await new Promise<void>((resume) => this.#waiters.push(resume))
    }
  }
}

const start = async () =>
  InProcessConnections.start({
    dataDir: inMemory,
    settings: embeddedSettings,
    startFrom: await readFreshCluster()
  })

const connect = async (connections: InProcessConnections): Promise<Client> => {
  const client = new Client(connections.open())
  client.write(startup())
  await client.answers()
  return client
}

/** The text of the first column of each DataRow. */
const values = (messages: ReadonlyArray<Message>) =>
  messages.filter((received) => received.type === "D").map((row) => {
    const length = row.body.readInt32BE(2)
    return row.body.subarray(6, 6 + length).toString()
  })
const types = (messages: ReadonlyArray<Message>) => messages.map((received) => received.type).join("")
/** A ReadyForQuery's status: I idle, T in a transaction block, E in a failed one. */
const status = (messages: ReadonlyArray<Message>) => String.fromCharCode(messages.at(-1)!.body[0]!)

describe("Connections to the embedded database inside the process", () => {
  let connections: InProcessConnections

  beforeAll(async () => {
    connections = await start()
    const client = await connect(connections)
    client.write(query("CREATE TABLE kept (n int)"))
    await client.answers()
    client.destroy()
  }, 60_000)

  afterAll(async () => {
    await connections.close()
  })

  it("a message written right after an answer is run, however many microtasks later the client writes it", async () => {
    // The driver answers a ReadyForQuery in microtasks of its own; the queue once stopped for good
    // when a message came in the step between finding itself empty and saying it had stopped.
    const client = await connect(connections)
    for (let hops = 0; hops < 40; hops++) {
      client.writeAfterNextAnswer(hops, query(`SELECT ${hops} + 100`))
      client.write(query(`SELECT ${hops}`))
      expect(values(await client.answers())).toEqual([`${hops}`])
      expect(await client.answersWithin(2_000), `written ${hops} microtasks after the answer`).toBe(true)
      expect(values(await client.answers())).toEqual([`${hops + 100}`])
    }
    client.destroy()
  })

  it("pipelined statements are answered in order, and one that fails skips only to its own Sync", async () => {
    const client = await connect(connections)
    client.write(Buffer.concat([
      extended("SELECT 1"),
      syncMessage,
      extended("SELECT 1 / 0"),
      extended("SELECT 2"),
      syncMessage,
      extended("SELECT 3"),
      syncMessage
    ]))
    const [first, failed, third] = [await client.answers(), await client.answers(), await client.answers()]
    expect(values(first)).toEqual(["1"])
    // The error (at Bind, where `1 / 0` is folded), then nothing of `SELECT 2`, which PostgreSQL
    // skips with the rest of the exchange up to its Sync.
    expect(types(failed)).toBe("1EZ")
    expect(values(third)).toEqual(["3"])
    expect([first, failed, third].map(status)).toEqual(["I", "I", "I"])
    client.destroy()
  })

  it("another connection's statements do not run inside an exchange not yet synced, nor inside a transaction", async () => {
    const owner = await connect(connections)
    const other = await connect(connections)
    // Parse, Bind and Execute, the Sync still to come: the unnamed portal is the owner's.
    owner.write(extended("SELECT 'owner'"))
    other.write(Buffer.concat([extended("SELECT 'other'"), syncMessage]))
    expect(await other.answersWithin(300)).toBe(false)
    owner.write(syncMessage)
    expect(values(await owner.answers())).toEqual(["owner"])
    expect(values(await other.answers())).toEqual(["other"])

    owner.write(query("BEGIN; INSERT INTO kept VALUES (1)"))
    expect(status(await owner.answers())).toBe("T")
    other.write(query("SELECT count(*) FROM kept"))
    expect(await other.answersWithin(300)).toBe(false)
    owner.write(query("INSERT INTO kept VALUES (2)"))
    expect(status(await owner.answers())).toBe("T")
    owner.write(query("COMMIT"))
    expect(status(await owner.answers())).toBe("I")
    // Run once the transaction committed: it sees both rows, never the transaction half done.
    expect(values(await other.answers())).toEqual(["2"])
    owner.destroy()
    other.destroy()
  })

  it("a connection closed inside its transaction has it rolled back, and one closed mid-exchange leaves the backend usable", async () => {
    const other = await connect(connections)
    const inTransaction = await connect(connections)
    inTransaction.write(query("BEGIN; INSERT INTO kept VALUES (3)"))
    await inTransaction.answers()
    other.write(query("SELECT count(*) FROM kept WHERE n = 3"))
    inTransaction.destroy()
    const counted = await other.answers()
    expect(values(counted)).toEqual(["0"])
    // Idle, not in the closed connection's transaction block.
    expect(status(counted)).toBe("I")

    // A failed statement whose Sync never comes: the backend skips messages until a Sync.
    const cut = await connect(connections)
    cut.write(extended("SELECT 1 / 0"))
    await new Promise((resume) => setTimeout(resume, 50))
    other.write(Buffer.concat([extended("SELECT 'after'"), syncMessage]))
    cut.destroy()
    const after = await other.answers()
    expect(values(after)).toEqual(["after"])
    expect(status(after)).toBe("I")
    other.destroy()
  })
})

describe("Connections to the embedded database when its worker stops", () => {
  it("a connection waiting on it fails at once, and so does each new one: nothing waits", async () => {
    // The worker the connections write to, found as they post to it, to stop it as a crash would.
    const workers = new Set<Worker>()
    const post = Worker.prototype.postMessage
    Worker.prototype.postMessage = function(this: Worker, ...message: Parameters<Worker["postMessage"]>) {
      workers.add(this)
      return post.apply(this, message)
    }
    let connections: InProcessConnections
    let busy: Client
    try {
      connections = await start()
      busy = await connect(connections)
    } finally {
      Worker.prototype.postMessage = post
    }
    expect(workers.size).toBe(1)
    busy.write(query("SELECT pg_sleep(30)"))
    await new Promise((resume) => setTimeout(resume, 200))
    const stopped = performance.now()
    for (const worker of workers) await worker.terminate()

    expect((await busy.closed)?.message).toMatch(/worker stopped/)
    const late = new Client(connections.open())
    late.write(startup())
    expect((await late.closed)?.message).toMatch(/worker stopped/)
    await connections.close()
    // Generous: what matters is that nothing waited on the statement the worker was running.
    expect(performance.now() - stopped).toBeLessThan(5_000)
  }, 60_000)
})
