import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import * as Http2 from "node:http2"
import { afterEach, describe, expect, it } from "vitest"
import * as Listener from "../src/Listener.ts"
import { pipelinedConnection } from "./reliability/support/pipelining.ts"
import { h2c, http1, sleep } from "./support/requests.ts"

/** A stand-in for the Connect handler: answers at once, or after `/Slow` waits, never for `/Hang`. */
const connectStub: Listener.NodeRequestHandler = (request, response) => {
  if (request.url === "/todo.TodoService/Hang") return
  // Refuses at once, without reading the body (as Connect refuses an oversize message).
  if (request.url === "/todo.TodoService/Early") return void response.end("refused")
  if (request.url === "/todo.TodoService/Throw") throw new Error("a bug in the handler")
  const answer = () => response.end(`connect ${request.httpVersion} ${request.url}`)
  if (request.url === "/todo.TodoService/Slow") setTimeout(answer, 1500)
  else answer()
}

/** The stub serves `/todo.TodoService/`, as the real Connect handler serves its RPCs; the rest goes to the app. */
const besideTheApp = (connect: Listener.NodeRequestHandler): Listener.ConnectFront => ({
  servicePaths: ["/todo.TodoService/"],
  handler: () => connect
})

const Routes = Layer.mergeAll(
  HttpRouter.add("GET", "/hello", Effect.succeed(HttpServerResponse.text("hello from effect"))),
  HttpRouter.add("GET", "/slow", Effect.as(Effect.sleep("1500 millis"), HttpServerResponse.text("slow from effect")))
)

const started: Array<{ readonly close: () => Promise<void> }> = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()))
})

const start = async (
  options: {
    readonly connect?: Listener.NodeRequestHandler
    readonly shutdownTimeoutMs?: number
    readonly gracePeriodMs?: number
  }
) => {
  const app = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      Listener.layer({
        host: "127.0.0.1",
        port: 0,
        shutdownTimeout: options.shutdownTimeoutMs ?? 5_000,
        shutdownGracePeriod: options.gracePeriodMs ?? 2_000
      })
    ),
    Layer.provide(NodeHttpServer.layerHttpServices),
    Layer.provide(
      options.connect === undefined
        ? Layer.empty
        : Layer.succeed(Listener.ConnectHandler, besideTheApp(options.connect))
    )
  )
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(app, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  let closing: Promise<void> | undefined
  const server = {
    port: address.port,
    close: () => (closing ??= Effect.runPromise(Scope.close(scope, Exit.void)))
  }
  started.push(server)
  return server
}

describe("the listener: one port, HTTP/1.1 and h2c", () => {
  it("serves the Effect app over HTTP/1.1 and over h2c", async () => {
    const { port } = await start({ connect: connectStub })
    expect(await http1(port, "/hello")).toMatchObject({ status: 200, body: "hello from effect" })
    expect(await h2c(port, "/hello")).toMatchObject({ status: 200, body: "hello from effect" })
  })

  it("sends /todo.TodoService/ to the Connect handler over both protocols", async () => {
    const { port } = await start({ connect: connectStub })
    expect(await http1(port, "/todo.TodoService/ListTasks")).toMatchObject({
      status: 200,
      body: "connect 1.1 /todo.TodoService/ListTasks"
    })
    expect(await h2c(port, "/todo.TodoService/ListTasks")).toMatchObject({
      status: 200,
      body: "connect 2.0 /todo.TodoService/ListTasks"
    })
  })

  it("answers 500 when the Connect handler throws, and keeps serving", async () => {
    const { port } = await start({ connect: connectStub })
    expect((await http1(port, "/todo.TodoService/Throw")).status).toBe(500)
    expect((await h2c(port, "/todo.TodoService/Throw")).status).toBe(500)
    expect((await http1(port, "/hello")).status).toBe(200)
  })

  it("without a Connect handler, those paths reach the Effect app (404)", async () => {
    const { port } = await start({})
    expect((await http1(port, "/todo.TodoService/ListTasks")).status).toBe(404)
  })

  it("keeps HTTP/1.1 requests that start like the preface (POST, PUT, PATCH) on HTTP/1.1", async () => {
    const { port } = await start({ connect: connectStub })
    for (const method of ["POST", "PUT", "PATCH"]) {
      expect((await http1(port, "/todo.TodoService/Create", { method })).body).toBe(
        "connect 1.1 /todo.TodoService/Create"
      )
    }
  })

  it("on shutdown refuses new connections and lets running requests finish", async () => {
    const server = await start({ connect: connectStub })
    const slowHttp1 = http1(server.port, "/todo.TodoService/Slow")
    const slowH2 = h2c(server.port, "/todo.TodoService/Slow")
    const slowEffect = http1(server.port, "/slow")
    const slowEffectH2 = h2c(server.port, "/slow")
    await sleep(300)
    const startedAt = Date.now()
    const closed = server.close()
    await sleep(100)
    await expect(http1(server.port, "/hello")).rejects.toMatchObject({ code: "ECONNREFUSED" })
    expect(await slowHttp1).toMatchObject({ status: 200, body: "connect 1.1 /todo.TodoService/Slow" })
    expect(await slowH2).toMatchObject({ status: 200, body: "connect 2.0 /todo.TodoService/Slow" })
    expect(await slowEffect).toMatchObject({ status: 200, body: "slow from effect" })
    expect(await slowEffectH2).toMatchObject({ status: 200, body: "slow from effect" })
    await closed
    expect(Date.now() - startedAt).toBeLessThan(3_000)
  })

  it("cuts requests still running when the shutdown bound is reached", async () => {
    const server = await start({ connect: connectStub, shutdownTimeoutMs: 500 })
    const hanging = http1(server.port, "/todo.TodoService/Hang")
    await sleep(200)
    const startedAt = Date.now()
    await server.close()
    const elapsed = Date.now() - startedAt
    expect(elapsed).toBeGreaterThanOrEqual(450)
    expect(elapsed).toBeLessThan(2_000)
    await expect(hanging).rejects.toMatchObject({ code: "ECONNRESET" })
  })

  it("on shutdown answers a request sent on an idle kept-alive connection within the grace period, with Connection: close, then closes the idle ones cleanly", async () => {
    const server = await start({ connect: connectStub, gracePeriodMs: 500 })
    const [sending, staying] = [pipelinedConnection(server.port), pipelinedConnection(server.port)]
    for (const connection of [sending, staying]) {
      expect((await connection.send({ method: "GET", path: "/hello" })).answer?.status).toBe(200)
    }
    const startedAt = performance.now()
    const closed = server.close()
    await sleep(100)
    const late = await sending.send({ method: "GET", path: "/hello" })
    expect(late.answer).toMatchObject({ status: 200, body: "hello from effect", headers: { connection: "close" } })
    await sending.closed
    await staying.closed
    await closed
    // Closed by the server (a FIN, never a reset): the one that sent right after its answer, the idle one at the end of the grace period.
    expect([...sending.errors, ...staying.errors]).toEqual([])
    expect(sending.endedAt()! - startedAt).toBeLessThan(400)
    expect(staying.endedAt()! - startedAt).toBeGreaterThanOrEqual(450)
    expect(performance.now() - startedAt).toBeLessThan(1_500)
  })

  it("a request pipelined behind the one answered with Connection: close is not served, and meets a clean close", async () => {
    const server = await start({ connect: connectStub, gracePeriodMs: 500 })
    const connection = pipelinedConnection(server.port)
    expect((await connection.send({ method: "GET", path: "/hello" })).answer?.status).toBe(200)
    const closed = server.close()
    await sleep(50)
    const [answered, behind] = await Promise.all([
      connection.send({ method: "GET", path: "/todo.TodoService/Slow" }),
      connection.send({ method: "GET", path: "/hello" })
    ])
    expect(answered.answer).toMatchObject({ status: 200, headers: { connection: "close" } })
    expect(behind).toMatchObject({ written: true, unanswered: "ended" })
    expect(connection.errors).toEqual([])
    await closed
  })

  it("an HTTP/2 answer complete before its request: the rest is read and discarded, so that 50 such requests on one session are each answered and the session keeps serving", async () => {
    const { port } = await start({ connect: connectStub })
    const session = Http2.connect(`http://127.0.0.1:${port}`)
    const failures: Array<string> = []
    session.on("error", (error) => failures.push(error.message))
    const body = Buffer.alloc(1024 * 1024 + 100)
    const post = () =>
      new Promise<string>((resolve) => {
        // Like grpc-js: once the answer is complete, the client does not reset the stream, it finishes sending.
        const stream = session.request({ ":method": "POST", ":path": "/todo.TodoService/Early" })
        let text = ""
        stream.setEncoding("utf8")
        stream.on("data", (chunk: string) => (text += chunk))
        stream.on("error", (error) => resolve(`error ${error.message}`))
        // Once the whole request is sent too: stream after stream, as a client calling one after another.
        stream.on("close", () => resolve(text))
        stream.end(body)
      })
    for (let i = 0; i < 50; i++) expect(await post(), `request ${i}`).toBe("refused")
    const hello = await new Promise<string>((resolve) => {
      const stream = session.request({ ":path": "/hello" })
      let text = ""
      stream.setEncoding("utf8")
      stream.on("data", (chunk: string) => (text += chunk))
      stream.on("end", () => resolve(text))
      stream.on("error", (error) => resolve(`error ${error.message}`))
    })
    expect(hello).toBe("hello from effect")
    expect(failures).toEqual([])
    session.close()
  })
})
