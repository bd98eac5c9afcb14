// Unary `todo.TodoService/ListTasks` against a running server over each protocol it serves, from a
// client in this process: Connect JSON over HTTP/1.1 (a declared length, and chunked: a request
// the server's unary shortcut, while it had one, left to connect-node), gRPC-Web over HTTP/1.1,
// and gRPC over HTTP/2. Reports requests per second and the server's CPU time per request (from
// /proc), the figure that other work on a shared machine disturbs least. Usage:
//   [PROTOCOLS=<regex>] TOKEN=<bearer token> node src/tools/measureConnectProtocols.ts <base-url> <server-pid> [seconds=8] [concurrency=32]
import { readFileSync } from "node:fs"
import * as Http from "node:http"
import * as Http2 from "node:http2"

const [baseUrl, pidText, secondsText = "8", concurrencyText = "32"] = process.argv.slice(2)
const token = process.env["TOKEN"]
if (baseUrl === undefined || pidText === undefined || token === undefined) {
  throw new Error(
    "usage: TOKEN=<token> node src/tools/measureConnectProtocols.ts <base-url> <server-pid> [seconds] [concurrency]"
  )
}
const seconds = Number(secondsText)
const concurrency = Number(concurrencyText)
const url = new URL(baseUrl)
const path = "/todo.TodoService/ListTasks"
/** A gRPC length-prefixed message: not compressed, empty (ListTasksRequest has no fields). */
const emptyFrame = Buffer.alloc(5)

/** The server's user + system CPU time so far, in microseconds. */
const serverCpuMicros = (): number => {
  const fields = readFileSync(`/proc/${pidText}/stat`, "utf8").split(") ")[1]!.split(" ")
  const ticks = Number(fields[11]) + Number(fields[12])
  return ticks * 10_000
}

type Call = () => Promise<void>

const agent = new Http.Agent({ keepAlive: true, maxSockets: concurrency })

const http1Call = (headers: Record<string, string>, body: Buffer | string, chunked: boolean): Call => () =>
  new Promise((resolve, reject) => {
    const request = Http.request({
      host: url.hostname,
      port: url.port,
      path,
      method: "POST",
      agent,
      headers: chunked ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("latin1")
        const ok = response.statusCode === 200 &&
          (headers["content-type"] === "application/json" || /grpc-status: ?0\r\n/.test(text))
        if (ok) resolve()
        else reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`))
      })
    })
    request.on("error", reject)
    if (chunked) request.write(body)
    request.end(chunked ? undefined : body)
  })

const authorization = `Bearer ${token}`
const connectJson = http1Call({ "content-type": "application/json", authorization }, "{}", false)
const connectJsonChunked = http1Call({ "content-type": "application/json", authorization }, "{}", true)
const grpcWeb = http1Call({ "content-type": "application/grpc-web+proto", authorization }, emptyFrame, false)

let session: Http2.ClientHttp2Session | undefined
const grpc: Call = () =>
  new Promise((resolve, reject) => {
    session ??= Http2.connect(url.origin)
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc+proto",
      te: "trailers",
      authorization
    })
    let status: string | undefined
    stream.on("trailers", (trailers) => (status = String(trailers["grpc-status"])))
    stream.on("data", () => undefined)
    stream.on("end", () => (status === "0" ? resolve() : reject(new Error(`grpc-status ${status}`))))
    stream.on("error", reject)
    stream.end(emptyFrame)
  })

/** `concurrency` loops calling for `durationMs`; the number of calls completed. */
const drive = async (call: Call, durationMs: number): Promise<number> => {
  const end = Date.now() + durationMs
  let calls = 0
  const loop = async () => {
    while (Date.now() < end) {
      await call()
      calls++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop))
  return calls
}

const protocols: ReadonlyArray<readonly [string, Call]> = [
  ["Connect JSON (HTTP/1.1, content-length)", connectJson],
  ["Connect JSON (HTTP/1.1, chunked)", connectJsonChunked],
  ["gRPC-Web (HTTP/1.1)", grpcWeb],
  ["gRPC (HTTP/2)", grpc]
]
// PROTOCOLS=<regex> measures only the protocols whose name matches (e.g. to profile one).
const only = new RegExp(process.env["PROTOCOLS"] ?? "")
for (const [name, call] of protocols.filter(([name]) => only.test(name))) {
  await drive(call, 2_000)
  const cpuBefore = serverCpuMicros()
  const started = performance.now()
  const calls = await drive(call, seconds * 1_000)
  const elapsed = (performance.now() - started) / 1_000
  const cpu = serverCpuMicros() - cpuBefore
  console.log(
    `${name.padEnd(42)} ${String(Math.round(calls / elapsed)).padStart(6)} req/s  server cpu ${
      String(Math.round(cpu / calls)).padStart(4)
    } µs/req`
  )
}
session?.close()
agent.destroy()
