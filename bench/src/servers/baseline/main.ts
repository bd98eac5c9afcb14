// The baseline: a bare node:http server on the project's database driver (@effect/sql-pg's PgClient,
// configured by the project's own PostgresServer layer: same pool size, same pipelining), running the
// project's SQL for the benchmarked endpoints. No framework, no validation, no auth.
import { PostgresServer } from "@club/postgres-adapter"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Answer } from "./Answer.ts"
import { routes } from "./routes.ts"

const runtime = ManagedRuntime.make(PostgresServer(Redacted.make(process.env["DATABASE_URL"]!)))
const sql = await runtime.runPromise(Effect.service(SqlClient.SqlClient))

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const send = (response: ServerResponse, { body, status }: Answer) => {
  if (body === undefined) return void response.writeHead(status).end()
  const text = typeof body === "string"
  const payload = text ? body : JSON.stringify(body)
  response.writeHead(status, {
    "content-type": text ? "text/plain; charset=utf-8" : "application/json",
    "content-length": Buffer.byteLength(payload)
  })
  response.end(payload)
}

const handle = async (request: IncomingMessage, response: ServerResponse) => {
  if (request.url === "/health/live") return send(response, { status: 200, body: { status: "ok" } })
  for (const route of routes) {
    const match = request.method === route.method ? route.pattern.exec(request.url ?? "") : null
    if (match === null) continue
    const text = await readBody(request)
    const body = text.length === 0 ? {} : JSON.parse(text)
    return send(response, await runtime.runPromise(route.handle(sql, match.slice(1), body)))
  }
  send(response, { status: 404 })
}

const server = createServer((request, response) => {
  handle(request, response).catch((error) => {
    console.error(error)
    if (!response.headersSent) response.writeHead(500)
    response.end()
  })
})
server.listen(Number(process.env["PORT"]), process.env["HOST"] ?? "127.0.0.1")

const stop = () => {
  server.close()
  server.closeAllConnections()
  void runtime.dispose().finally(() => process.exit(0))
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
