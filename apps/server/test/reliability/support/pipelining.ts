import * as Net from "node:net"

export interface PipelinedRequest {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

export interface PipelinedAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
  readonly at: number
}

/** One request on a pipelined connection, and how it went. */
export interface Exchange {
  readonly request: PipelinedRequest
  readonly sentAt: number
  /** The whole request was handed to the kernel (the write's callback ran without an error). */
  written: boolean
  answer?: PipelinedAnswer
  /**
   * Why there is no answer: `"ended"` when the server ended the connection cleanly (a FIN) first,
   * `"not sent"` when the connection had ended or announced its close before the request was
   * due, or the socket's error code (`ECONNRESET`, `ECONNREFUSED`, ...).
   */
  unanswered?: string
}

/**
 * A raw HTTP/1.1 connection that pipelines: requests are written back to back without waiting for
 * the answers, which come back in order. It records what happened to each request, down to the
 * socket: an answer, a clean end of the connection, or a reset.
 */
export interface PipelinedConnection {
  /** Resolves when the request is answered or can no longer be. */
  readonly send: (request: PipelinedRequest) => Promise<Exchange>
  /** Whether requests may still be sent: the connection is open and no answer said `Connection: close`. */
  readonly usable: () => boolean
  readonly exchanges: ReadonlyArray<Exchange>
  /** The socket's error codes, in order. */
  readonly errors: ReadonlyArray<string>
  /** When the server ended the connection (a FIN), if it did. */
  readonly endedAt: () => number | undefined
  readonly closed: Promise<void>
  readonly destroy: () => void
}

const crlf = Buffer.from("\r\n")
const headerEnd = Buffer.from("\r\n\r\n")

/** Parses one whole answer at the start of `buffer`: the answer and the bytes it took, or undefined while incomplete. */
const parseAnswer = (
  buffer: Buffer
): { readonly answer: Omit<PipelinedAnswer, "at">; readonly length: number } | undefined => {
  const end = buffer.indexOf(headerEnd)
  if (end < 0) return undefined
  const [statusLine, ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n")
  const status = Number(/^HTTP\/1\.[01] (\d{3})/u.exec(statusLine ?? "")?.[1] ?? NaN)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let offset = end + headerEnd.length
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const chunks: Array<Buffer> = []
    for (;;) {
      const lineEnd = buffer.indexOf(crlf, offset)
      if (lineEnd < 0) return undefined
      const size = parseInt(buffer.subarray(offset, lineEnd).toString("latin1"), 16)
      offset = lineEnd + crlf.length
      if (size === 0) {
        if (buffer.length < offset + crlf.length) return undefined
        offset += crlf.length
        break
      }
      if (buffer.length < offset + size + crlf.length) return undefined
      chunks.push(buffer.subarray(offset, offset + size))
      offset += size + crlf.length
    }
    return { answer: { status, headers, body: Buffer.concat(chunks).toString("utf8") }, length: offset }
  }
  const length = Number(headers["content-length"] ?? 0)
  if (buffer.length < offset + length) return undefined
  return {
    answer: { status, headers, body: buffer.subarray(offset, offset + length).toString("utf8") },
    length: offset + length
  }
}

const serialize = (request: PipelinedRequest, port: number) => {
  const body = request.body === undefined ? undefined : Buffer.from(request.body)
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...request.headers }
  if (body !== undefined) headers["content-length"] = String(body.length)
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${
    Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  }\r\n`
  return body === undefined ? Buffer.from(head, "latin1") : Buffer.concat([Buffer.from(head, "latin1"), body])
}

export const pipelinedConnection = (port: number): PipelinedConnection => {
  const socket = Net.connect({ host: "127.0.0.1", port })
  socket.setNoDelay(true)
  const exchanges: Array<Exchange> = []
  const waiting: Array<{ readonly exchange: Exchange; readonly resolve: (exchange: Exchange) => void }> = []
  const errors: Array<string> = []
  let received: Buffer = Buffer.alloc(0)
  let endedAt: number | undefined
  let closeAnnounced = false
  let gone = false

  const settleAll = (why: string) => {
    for (const { exchange, resolve } of waiting.splice(0)) {
      exchange.unanswered = why
      resolve(exchange)
    }
  }
  socket.on("data", (chunk: Buffer) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk])
    for (;;) {
      const parsed = parseAnswer(received)
      if (parsed === undefined) return
      received = received.subarray(parsed.length)
      const next = waiting.shift()
      const answer = { ...parsed.answer, at: performance.now() }
      if (answer.headers["connection"]?.toLowerCase() === "close") closeAnnounced = true
      if (next === undefined) {
        errors.push(`an answer to no request: ${answer.status}`)
        continue
      }
      next.exchange.answer = answer
      next.resolve(next.exchange)
    }
  })
  socket.on("end", () => {
    endedAt = performance.now()
    gone = true
    settleAll("ended")
  })
  socket.on("error", (error: NodeJS.ErrnoException) => {
    gone = true
    errors.push(error.code ?? error.message)
    settleAll(error.code ?? error.message)
  })
  const closed = new Promise<void>((resolve) =>
    socket.once("close", () => {
      gone = true
      settleAll("closed")
      resolve()
    })
  )

  const send = (request: PipelinedRequest) =>
    new Promise<Exchange>((resolve) => {
      const exchange: Exchange = { request, sentAt: performance.now(), written: false }
      exchanges.push(exchange)
      if (gone || closeAnnounced) {
        exchange.unanswered = "not sent"
        return resolve(exchange)
      }
      waiting.push({ exchange, resolve })
      socket.write(serialize(request, port), (error) => {
        if (error === undefined || error === null) exchange.written = true
      })
    })

  return {
    send,
    usable: () => !gone && !closeAnnounced,
    exchanges,
    errors,
    endedAt: () => endedAt,
    closed,
    destroy: () => socket.destroy()
  }
}
