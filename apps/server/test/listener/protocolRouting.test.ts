import { makeTodoNodeHandlerFactory, servedServicePaths } from "@club/connect-adapter"
import { Readiness, UseCasesLive } from "@club/core"
import {
  InMemoryCursorSeal,
  InMemoryHostResolver,
  InMemoryPasswordHasher,
  InMemoryRepositories,
  InMemoryTokenSigner
} from "@club/core/testing"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import * as Listener from "../../src/Listener.ts"
import { h2c, http1 } from "../support/requests.ts"

/** Every request that entered connect-adapter's handler: its method and path. */
const entered: Array<string> = []

/**
 * The real Connect handler (connect-adapter's, on core's use-cases in memory), with a hook at its
 * door: the listener calls nothing else of connect-adapter's while serving a request.
 */
const RecordedConnect = Layer.effect(
  Listener.ConnectHandler,
  Effect.map(makeTodoNodeHandlerFactory, (make): Listener.ConnectFront => ({
    servicePaths: servedServicePaths,
    handler: (draining) => {
      const handler = make({ draining })
      return (request, response) => {
        entered.push(`${request.method} ${request.url}`)
        handler(request, response)
      }
    }
  }))
).pipe(
  Layer.provide(UseCasesLive),
  Layer.provide(
    Layer.mergeAll(
      InMemoryRepositories,
      InMemoryPasswordHasher,
      InMemoryTokenSigner,
      InMemoryCursorSeal,
      InMemoryHostResolver,
      Layer.succeed(Readiness)({ check: Effect.succeed(true) })
    )
  )
)

const Routes = Layer.mergeAll(
  HttpRouter.add("GET", "/session/all", Effect.succeed(HttpServerResponse.text("rest"))),
  HttpRouter.add("POST", "/session/create", Effect.succeed(HttpServerResponse.text("rest")))
)

let port = 0
const scope = Effect.runSync(Scope.make())
beforeAll(async () => {
  const app = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(Listener.layer({ host: "127.0.0.1", port: 0, corsOrigins: ["https://club.example"] })),
    Layer.provide(NodeHttpServer.layerHttpServices),
    Layer.provide(RecordedConnect)
  )
  const context = await Effect.runPromise(Layer.buildWithScope(app, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  port = address.port
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
beforeEach(() => {
  entered.length = 0
})

const post = (path: string, contentType: string, body: string) =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { "content-type": contentType }, body })

describe("the listener routes by protocol before Connect", () => {
  it("sends REST requests straight to the app: none enters connect-adapter", async () => {
    expect(await http1(port, "/session/all")).toMatchObject({ status: 200, body: "rest" })
    expect(await h2c(port, "/session/all")).toMatchObject({ status: 200, body: "rest" })
    expect((await post("/session/create", "application/json", "{}")).status).toBe(200)
    // A path no route takes, a body Connect's codecs name, a Connect or `grpc.` name elsewhere: still REST.
    expect((await http1(port, "/nowhere")).status).toBe(404)
    expect((await post("/session/create", "application/proto", "")).status).toBe(200)
    expect((await post("/other.Service/Method", "application/connect+json", "")).status).toBe(404)
    expect((await http1(port, "/grpc.other.v1.Service/Method")).status).toBe(404)
    // A preflight from an allowed origin is answered in front of both.
    const preflight = await fetch(`http://127.0.0.1:${port}/session/create`, {
      method: "OPTIONS",
      headers: { origin: "https://club.example", "access-control-request-method": "POST" }
    })
    expect(preflight.status).toBe(204)
    expect(entered).toEqual([])
  })

  it("sends TodoService's, health's and reflection's paths and every gRPC content type to Connect", async () => {
    const connect = await post("/todo.TodoService/ListTasks", "application/json", "{}")
    expect(connect.status).toBe(401)
    expect((await connect.json()) as unknown).toMatchObject({ code: "unauthenticated" })
    const unknownMethod = await post("/todo.TodoService/Nothing", "application/json", "{}")
    expect([unknownMethod.status, (await unknownMethod.json()) as unknown]).toEqual([
      501,
      { code: "unimplemented", message: "unknown method /todo.TodoService/Nothing" }
    ])
    const health = await h2c(port, "/grpc.health.v1.Health/Check", {
      method: "POST",
      headers: { "content-type": "application/grpc", te: "trailers" },
      body: "\u0000\u0000\u0000\u0000\u0000"
    })
    expect(health.status).toBe(200)
    const unknownService = await h2c(port, "/other.Service/Method", {
      method: "POST",
      headers: { "content-type": "application/grpc", te: "trailers" },
      body: ""
    })
    expect(unknownService.headers["grpc-status"]).toBe("12")
    expect(entered).toEqual([
      "POST /todo.TodoService/ListTasks",
      "POST /todo.TodoService/Nothing",
      "POST /grpc.health.v1.Health/Check",
      "POST /other.Service/Method"
    ])
  })
})
