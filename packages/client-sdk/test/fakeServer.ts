import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
  readonly body: string
}

export type Route = (request: Recorded) => { status: number; contentType?: string; body?: string } | undefined

/** A stand-in for the real server that answers canned responses, to test how the SDK reads them. */
export const startFakeServer = async (route: Route) => {
  const requests: Array<Recorded> = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("utf8")
      }
      requests.push(recorded)
      const answer = route(recorded) ?? { status: 404 }
      res.writeHead(answer.status, answer.contentType === undefined ? {} : { "content-type": answer.contentType })
      res.end(answer.body ?? "")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export const problem = (status: number, title: string, detail: string) => ({
  status,
  contentType: "application/problem+json",
  body: JSON.stringify({ type: "about:blank", title, status, detail })
})

export const text = (status: number, body: string) => ({ status, contentType: "text/plain", body })
export const json = (status: number, body: unknown) => ({ status, contentType: "application/json", body: JSON.stringify(body) })
