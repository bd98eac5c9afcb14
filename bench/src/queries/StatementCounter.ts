import { connect, createServer, type Server, type Socket } from "node:net"

/**
 * A loopback TCP proxy in front of PostgreSQL that reads the frontend protocol on its way through
 * and records every statement a client executes: each `Execute` of the extended protocol (with the
 * text of the prepared statement it runs) and each simple `Query`. It sees what the server really
 * sends, whatever layer sends it: authentication lookups, BEGIN/COMMIT, the queries themselves.
 */
export interface StatementCounter {
  /** `databaseUrl` rewritten to reach the same database through the proxy. */
  readonly url: (databaseUrl: string) => string
  readonly reset: () => void
  /** The statements executed since the last reset, in order. */
  readonly statements: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

const sslRequest = 80877103
const gssEncRequest = 80877104

const cString = (buffer: Buffer, start: number): [string, number] => {
  const end = buffer.indexOf(0, start)
  return [buffer.toString("utf8", start, end), end + 1]
}

/** Splits one connection's client-to-server bytes into messages and reports each executed statement. */
const makeParser = (onStatement: (text: string) => void) => {
  let pending = Buffer.alloc(0)
  let startup = true
  const prepared = new Map<string, string>()
  let bound = ""

  const message = (type: number, body: Buffer) => {
    switch (String.fromCharCode(type)) {
      case "P": {
        const [name, next] = cString(body, 0)
        prepared.set(name, cString(body, next)[0])
        break
      }
      case "B": {
        const [, next] = cString(body, 0)
        bound = prepared.get(cString(body, next)[0]) ?? "(unknown statement)"
        break
      }
      case "E":
        onStatement(bound)
        break
      case "Q":
        onStatement(cString(body, 0)[0])
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
  let recorded: Array<string> = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const backend = connect(upstream.port, upstream.host)
    sockets.add(client).add(backend)
    const parse = makeParser((text) => recorded.push(text))
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
    statements: () => [...recorded],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
  return counter
}
