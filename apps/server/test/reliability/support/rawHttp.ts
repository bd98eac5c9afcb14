import * as Http from "node:http"

export interface RawReply {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  /** The media type of `content-type`, without parameters; null when there is none. */
  readonly contentType: string | null
  readonly text: string
  readonly ms: number
}

export interface RawRequest {
  readonly method: string
  /** Sent exactly as given: no normalisation of `..`, `%2e` or duplicate slashes, unlike fetch. */
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
  /**
   * On a connection of its own. A server that refuses a body before reading it all closes the
   * connection afterwards; on a shared one, a request queued behind would see the close.
   */
  readonly ownConnection?: boolean
}

/** HTTP/1.1 with kept-alive connections, that sends paths and bodies byte for byte as the test wrote them. */
export interface RawClient {
  readonly send: (request: RawRequest) => Promise<RawReply>
  readonly close: () => void
}

export interface RawClientOptions {
  readonly connections?: number
  /** The loopback address to send from (127.0.0.2, ...): the server counts failed logins per client address. */
  readonly localAddress?: string
}

export const rawClient = (port: number, options: RawClientOptions = {}): RawClient => {
  const agent = new Http.Agent({ keepAlive: true, maxSockets: options.connections ?? 16 })
  const send = (request: RawRequest) =>
    new Promise<RawReply>((resolve, reject) => {
      const started = performance.now()
      const headers: Record<string, string | number> = { ...request.headers }
      if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body)
      const outgoing = Http.request(
        {
          host: "127.0.0.1",
          port,
          method: request.method,
          path: request.path,
          headers,
          agent: request.ownConnection === true ? false : agent,
          ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
        },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("error", reject)
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              contentType: response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? null,
              text: Buffer.concat(chunks).toString("utf8"),
              ms: performance.now() - started
            }))
        }
      )
      outgoing.on("error", reject)
      outgoing.end(request.body)
    })
  return { send, close: () => agent.destroy() }
}
