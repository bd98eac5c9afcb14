import * as Net from "node:net"

/** Where a cut falls in a transaction's life. */
export type CutPoint =
  /** The client sent COMMIT: it is not forwarded, so the server rolls the transaction back. */
  | "before-commit"
  /** The server answered COMMIT (CommandComplete `COMMIT`): the transaction is kept, the answer is not passed on. */
  | "after-commit"
  /** A write statement was forwarded and the connection cut before its answer. */
  | "mid-statement"

export interface CommitCuttingProxy {
  readonly port: number
  /** The cuts made so far, by point. */
  readonly cuts: Record<CutPoint, number>
  /** Commits that went through whole. */
  readonly commitsPassed: () => number
  /** Sets the chance (0..1) of each cut, per COMMIT (before, after) or write statement (mid). */
  readonly setRates: (rates: Partial<Record<CutPoint, number>>) => void
  readonly close: () => Promise<void>
}

const sslRequestCode = 80877103
/** Of one connection: whether the client asked for SSL and the server's one-byte answer is still to come. */
interface SslState {
  pending: boolean
}

/** The text of a Query ('Q') or of a Parse ('P'), or the statement a Bind ('B') names. */
const cString = (buffer: Buffer, from: number): [string, number] => {
  const end = buffer.indexOf(0, from)
  return [buffer.toString("utf8", from, end), end + 1]
}

/**
 * Reads PostgreSQL frontend/backend messages off a byte stream, whatever the chunks: `onMessage`
 * gets each whole message (type byte, payload); the first message of a frontend stream has no type
 * byte (a startup, SSL or cancel request).
 */
const messageReader = (
  untyped: boolean,
  onMessage: (type: string, payload: Buffer, whole: Buffer) => boolean,
  ssl: SslState
) => {
  let pending: Buffer = Buffer.alloc(0)
  let first = untyped
  /** Returns the bytes to forward, or undefined once `onMessage` asked for the cut. */
  return (chunk: Buffer): { readonly forward: Buffer; readonly cut: boolean } => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    const forward: Array<Buffer> = []
    let offset = 0
    while (true) {
      if (first) {
        if (pending.length - offset < 4) break
        const length = pending.readInt32BE(offset)
        if (pending.length - offset < length) break
        const whole = pending.subarray(offset, offset + length)
        // An SSL request is followed by another untyped startup message.
        first = length === 8 && whole.readInt32BE(4) === sslRequestCode
        if (first) ssl.pending = true
        forward.push(whole)
        offset += length
        continue
      }
      if (!untyped && ssl.pending) {
        if (pending.length - offset < 1) break
        ssl.pending = false
        forward.push(pending.subarray(offset, offset + 1))
        offset += 1
        continue
      }
      if (pending.length - offset < 5) break
      const length = pending.readInt32BE(offset + 1)
      if (pending.length - offset < length + 1) break
      const whole = pending.subarray(offset, offset + length + 1)
      const type = String.fromCharCode(whole[0]!)
      if (!onMessage(type, whole.subarray(5), whole)) {
        return { forward: Buffer.concat(forward), cut: true }
      }
      forward.push(whole)
      offset += length + 1
    }
    pending = pending.subarray(offset)
    return { forward: Buffer.concat(forward), cut: false }
  }
}

const isCommit = (text: string) => /^\s*(COMMIT|END)\s*;?\s*$/iu.test(text)
const isWrite = (text: string) => /^\s*(WITH\b[\s\S]*)?\b(INSERT|UPDATE|DELETE)\b/iu.test(text)

/**
 * A TCP proxy between the server and PostgreSQL that reads the wire protocol enough to find COMMIT
 * (a simple Query, or a Parse of it and the Bind and Execute of that statement) and write
 * statements, and cuts the connection at the chosen points: what a failover, a network cut or a
 * restarted pooler does to a server. A cut destroys both sides at once.
 */
export const startCommitCuttingProxy = async (
  target: { readonly host: string; readonly port: number },
  random: () => number = Math.random
): Promise<CommitCuttingProxy> => {
  const rates: Record<CutPoint, number> = { "before-commit": 0, "after-commit": 0, "mid-statement": 0 }
  const cuts: Record<CutPoint, number> = { "before-commit": 0, "after-commit": 0, "mid-statement": 0 }
  let commitsPassed = 0
  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((client) => {
    const upstream = Net.connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
    }
    client.once("close", () => upstream.destroy())
    upstream.once("close", () => client.destroy())
    let cut = false
    const cutNow = (point: CutPoint) => {
      cuts[point]++
      cut = true
      client.destroy()
      upstream.destroy()
    }
    /** Statements parsed on this connection, by name: the text of each. */
    const statements = new Map<string, string>()
    /** The commits sent whose answers are to be dropped, in order. */
    const commitsInFlight: Array<boolean> = []
    let cutAfterForward: CutPoint | undefined
    const ssl: SslState = { pending: false }

    const fromClient = messageReader(true, (type, payload) => {
      let text: string | undefined
      if (type === "Q") text = cString(payload, 0)[0]
      else if (type === "P") {
        const [name, next] = cString(payload, 0)
        text = cString(payload, next)[0]
        statements.set(name, text)
        // Judged at its Bind, which runs it: a Parse alone runs nothing.
        return true
      } else if (type === "B") {
        const [, next] = cString(payload, 0)
        text = statements.get(cString(payload, next)[0])
      }
      if (text === undefined) return true
      if (isCommit(text)) {
        if (random() < rates["before-commit"]) return false
        commitsInFlight.push(random() < rates["after-commit"])
      } else if (isWrite(text) && cutAfterForward === undefined && random() < rates["mid-statement"]) {
        cutAfterForward = "mid-statement"
      }
      return true
    }, ssl)
    const fromServer = messageReader(false, (type, payload) => {
      if (type === "C" && isCommit(cString(payload, 0)[0])) {
        if (commitsInFlight.shift() === true) return false
        commitsPassed++
      }
      return true
    }, ssl)

    client.on("data", (chunk: Buffer) => {
      if (cut) return
      const { cut: cutHere, forward } = fromClient(chunk)
      if (forward.length > 0) upstream.write(forward)
      if (cutHere) return cutNow("before-commit")
      if (cutAfterForward !== undefined) {
        const point = cutAfterForward
        // Once the statement has left for the server, before its answer can come back.
        upstream.write(Buffer.alloc(0), () => cutNow(point))
      }
    })
    upstream.on("data", (chunk: Buffer) => {
      if (cut) return
      const { cut: cutHere, forward } = fromServer(chunk)
      if (forward.length > 0) client.write(forward)
      if (cutHere) cutNow("after-commit")
    })
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as Net.AddressInfo).port))
  })
  return {
    port,
    cuts,
    commitsPassed: () => commitsPassed,
    setRates: (next) => Object.assign(rates, next),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
  }
}
