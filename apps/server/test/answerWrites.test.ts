import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import * as Http from "node:http"
import type * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// @effect/platform-node is patched (patches/@effect__platform-node@4.1.0.patch, docs/DECISIONS.md
// "An answer of known length is one write"): an answer whose body is bytes or text of its own
// content-length goes out as Node's single final write, header and body together. Strict length
// checking, which costs that write, stays on for every other answer.

/** How the server's socket wrote an answer: its calls of `_write` (one chunk) and the chunks of each `_writev`. */
interface Writes {
  write: number
  writev: Array<number>
}

/** The writes of the server's newest connection: each test sends one request on a connection of its own. */
let newest: Writes = { write: 0, writev: [] }
const countWrites = (socket: Net.Socket) => {
  const writes: Writes = { write: 0, writev: [] }
  newest = writes
  const write = socket._write.bind(socket)
  const writev = socket._writev!.bind(socket)
  socket._write = (...args) => {
    writes.write++
    return write(...args)
  }
  socket._writev = (...args) => {
    writes.writev.push(args[0].length)
    return writev(...args)
  }
}

const Routes = Layer.mergeAll(
  HttpRouter.add("GET", "/text", Effect.succeed(HttpServerResponse.text("hello, wörld"))),
  HttpRouter.add("GET", "/json", Effect.succeed(HttpServerResponse.jsonUnsafe({ id: 1, name: "Séance" }))),
  HttpRouter.add(
    "GET",
    "/bytes",
    Effect.succeed(HttpServerResponse.uint8Array(new TextEncoder().encode("bytes"), { contentType: "text/plain" }))
  ),
  // A content-length that is not the body's: Node must still refuse to send it as complete.
  HttpRouter.add(
    "GET",
    "/wrong-length",
    Effect.succeed(HttpServerResponse.text("abc").pipe(HttpServerResponse.setHeader("content-length", "10")))
  )
)

let port = 0
let scope: Scope.Closeable
beforeAll(async () => {
  const app = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(() => Http.createServer().on("connection", countWrites), { host: "127.0.0.1", port: 0 })
    )
  )
  scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(app, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  port = address.port
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** One request on a connection of its own: its status, body, and how the server's socket wrote the answer. */
const get = (path: string) =>
  new Promise<{ status: number; body: string; complete: boolean; writes: Writes }>((resolve, reject) => {
    const request = Http.get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      const writes = newest
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("close", () =>
        resolve({
          status: response.statusCode!,
          body: Buffer.concat(chunks).toString("utf8"),
          complete: response.complete,
          writes: { write: writes.write, writev: [...writes.writev] }
        }))
    })
    request.on("error", reject)
  })

describe("an answer of known length", () => {
  it.each([
    ["text", "/text", "hello, wörld"],
    ["JSON", "/json", JSON.stringify({ id: 1, name: "Séance" })]
  ])("in %s is one write of header and body together", async (_, path, body) => {
    const answer = await get(path)
    expect(answer).toMatchObject({ status: 200, body, complete: true })
    expect(answer.writes).toEqual({ write: 1, writev: [] })
  })

  it("in bytes is one write of its header and its body, with no empty chunk after them", async () => {
    const answer = await get("/bytes")
    expect(answer).toMatchObject({ status: 200, body: "bytes", complete: true })
    expect(answer.writes).toEqual({ write: 0, writev: [2] })
  })

  it("is not sent as complete when its content-length is not the body's", async () => {
    const answer = await get("/wrong-length").catch((error: Error) => ({ error: error.message }))
    expect(answer).not.toMatchObject({ status: 200, body: "abc", complete: true })
  })
})
