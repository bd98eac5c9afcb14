import * as Http from "node:http"
import * as Http2 from "node:http2"

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** One HTTP/1.1 request on a connection of its own. */
export const http1 = (port: number, path: string, options: { readonly method?: string } = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const request = Http.request(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", agent: false },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
        response.on("error", reject)
      }
    )
    request.on("error", reject)
    request.end()
  })

export interface H2cRequest {
  readonly method?: string
  readonly headers?: Record<string, string>
  /** Sent as DATA frames with no `content-length`, as an HTTP/2 client may. */
  readonly body?: string
}

/** HTTP/2 with prior knowledge (h2c), as gRPC clients speak it. */
export const h2c = (port: number, path: string, request: H2cRequest = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const session = Http2.connect(`http://127.0.0.1:${port}`)
    session.on("error", reject)
    const stream = session.request({ ":path": path, ":method": request.method ?? "GET", ...request.headers })
    let status = 0
    let headers: Answer["headers"] = {}
    let body = ""
    stream.setEncoding("utf8")
    stream.on("response", (received) => {
      status = Number(received[":status"])
      headers = received
    })
    stream.on("data", (chunk: string) => (body += chunk))
    stream.on("end", () => {
      session.close()
      resolve({ status, headers, body })
    })
    stream.on("error", (error) => {
      session.destroy()
      reject(error)
    })
    stream.end(request.body)
  })

/**
 * One gRPC call over h2c with an empty message (five zero bytes), as a gRPC client frames it: the
 * response headers and the trailers together (a trailers-only answer has no trailers of its own).
 */
export const grpcEmptyCall = (
  port: number,
  path: string,
  headers: Record<string, string> = {}
): Promise<Http2.IncomingHttpHeaders> =>
  new Promise((resolve, reject) => {
    const session = Http2.connect(`http://127.0.0.1:${port}`)
    session.on("error", reject)
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      ...headers
    })
    let received: Http2.IncomingHttpHeaders = {}
    stream.on("response", (answer) => (received = answer))
    stream.on("trailers", (trailers) => (received = { ...received, ...trailers }))
    stream.on("close", () => {
      session.close()
      resolve(received)
    })
    stream.on("error", reject)
    stream.resume()
    stream.end(Buffer.from([0, 0, 0, 0, 0]))
  })

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
