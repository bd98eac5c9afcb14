import { connect, createServer, type Server, type Socket } from "node:net"
import { type BoundParameter, readBind, readParse } from "./extendedProtocol.ts"

/**
 * A loopback TCP proxy in front of PostgreSQL that reads the frontend protocol on its way through
 * and records every statement a client executes: each `Execute` of the extended protocol (with the
 * text of the prepared statement it runs) and each simple `Query`. It sees what the server really
 * sends, whatever layer sends it: authentication lookups, BEGIN/COMMIT, the queries themselves.
 * With each it keeps the values the statement was executed with, so that it can be run again.
 */
export interface StatementCounter {
  /** `databaseUrl` rewritten to reach the same database through the proxy. */
  readonly url: (databaseUrl: string) => string
  readonly reset: () => void
  /** The statements executed since the last reset, in order. */
  readonly statements: () => ReadonlyArray<string>
  /** The same, with how each was sent and the parameters it was bound to. */
  readonly executions: () => ReadonlyArray<ExecutedStatement>
  readonly close: () => Promise<void>
}

/** One execution of a statement, as it went over the wire. */
export interface ExecutedStatement {
  readonly text: string
  /**
   * `named`: a prepared statement, which PostgreSQL may run with a generic plan after five
   * executions; `unnamed`: the unnamed statement of the extended protocol, planned with its values
   * on every execution; `simple`: a simple `Query` message, text only.
   */
  readonly sent: "named" | "unnamed" | "simple"
  /** The type OIDs the client declared in `Parse` (0: inferred by the server), one per parameter. */
  readonly parameterTypes: ReadonlyArray<number>
  readonly parameters: ReadonlyArray<BoundParameter>
}

const sslRequest = 80877103
const gssEncRequest = 80877104

const cString = (buffer: Buffer, start: number): string => buffer.toString("utf8", start, buffer.indexOf(0, start))

interface PreparedStatement {
  readonly text: string
  readonly parameterTypes: ReadonlyArray<number>
}

const unknownStatement: PreparedStatement = { text: "(unknown statement)", parameterTypes: [] }

/** Splits one connection's client-to-server bytes into messages and reports each executed statement. */
const makeParser = (onStatement: (statement: ExecutedStatement) => void) => {
  let pending = Buffer.alloc(0)
  let startup = true
  const prepared = new Map<string, PreparedStatement>()
  let bound: ExecutedStatement | undefined

  const message = (type: number, body: Buffer) => {
    switch (String.fromCharCode(type)) {
      case "P": {
        const parse = readParse(body)
        prepared.set(parse.name, { text: parse.text, parameterTypes: parse.parameterTypes })
        break
      }
      case "B": {
        const bind = readBind(body)
        const statement = prepared.get(bind.statement) ?? unknownStatement
        bound = {
          text: statement.text,
          sent: bind.statement === "" ? "unnamed" : "named",
          parameterTypes: statement.parameterTypes,
          parameters: bind.parameters
        }
        break
      }
      case "E":
        onStatement(bound ?? { text: unknownStatement.text, sent: "unnamed", parameterTypes: [], parameters: [] })
        break
      case "Q":
        onStatement({ text: cString(body, 0), sent: "simple", parameterTypes: [], parameters: [] })
        break
    }
  }

  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk])
    for (;;) {
      if (startup) {
        if (pending.length < 8) return
        const length = pending.readInt32BE(0)
        if (pending.length < length) return
        const code = pending.readInt32BE(4)
        pending = pending.subarray(length)
        // After an SSL or GSS request the real startup message follows.
        if (code !== sslRequest && code !== gssEncRequest) startup = false
        continue
      }
      if (pending.length < 5) return
      const length = pending.readInt32BE(1)
      if (pending.length < length + 1) return
      message(pending[0]!, pending.subarray(5, length + 1))
      pending = pending.subarray(length + 1)
    }
  }
}

export const startStatementCounter = async (serverUrl: string): Promise<StatementCounter> => {
  const upstream = { host: new URL(serverUrl).hostname, port: Number(new URL(serverUrl).port || 5432) }
  let recorded: Array<ExecutedStatement> = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const backend = connect(upstream.port, upstream.host)
    sockets.add(client).add(backend)
    const parse = makeParser((statement) => recorded.push(statement))
    client.on("data", (chunk: Buffer) => {
      parse(chunk)
      backend.write(chunk)
    })
    backend.pipe(client)
    const close = () => {
      client.destroy()
      backend.destroy()
      sockets.delete(client)
      sockets.delete(backend)
    }
    client.on("close", close).on("error", close)
    backend.on("close", close).on("error", close)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  const counter: StatementCounter = {
    url: (databaseUrl) => {
      const url = new URL(databaseUrl)
      url.hostname = "127.0.0.1"
      url.port = String(port)
      return url.toString()
    },
    reset: () => void (recorded = []),
    statements: () => recorded.map((statement) => statement.text),
    executions: () => [...recorded],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
  return counter
}
