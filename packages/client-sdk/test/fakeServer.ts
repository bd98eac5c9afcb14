import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

export interface Answer {
  readonly status: number
  readonly contentType?: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** Never answer: the request hangs until the client gives up. */
  readonly hang?: boolean
}

export type Route = (request: Recorded, attempt: number) => Answer | undefined

/**
 * A stand-in for the real server that answers canned responses, to test how the SDK reads them and
 * how it behaves around them (retries, timeouts, aborts). `attempt` counts the requests of the same
 * method and path so far, from 1.
 */
export const startFakeServer = async (route: Route) => {
  const requests: Array<Recorded> = []
  const attempts = new Map<string, number>()
  const hanging = new Set<ServerResponse>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8")
      }
      requests.push(recorded)
      const key = `${recorded.method} ${recorded.url}`
      const attempt = (attempts.get(key) ?? 0) + 1
      attempts.set(key, attempt)
      const answer = route(recorded, attempt) ?? { status: 404 }
      if (answer.hang === true) return void hanging.add(res)
      res.writeHead(answer.status, {
        ...(answer.contentType === undefined ? {} : { "content-type": answer.contentType }),
        ...answer.headers
      })
      res.end(answer.body ?? "")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    /** How many requests of `method path` arrived so far. */
    count: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.url === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export const problem = (
  status: number,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {}
): Answer => ({
  status,
  contentType: "application/problem+json",
  headers,
  body: JSON.stringify({ type: "about:blank", title, status, detail, ...extra })
})

export const text = (status: number, body: string): Answer => ({ status, contentType: "text/plain", body })
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  contentType: "application/json",
  headers,
  body: JSON.stringify(body)
})
