import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Listener from "../src/Listener.ts"
import { RequestLimits } from "../src/shared/RequestLimits.ts"

const Echo = HttpRouter.add(
  "POST",
  "/echo",
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* request.text
    return HttpServerResponse.text(`${body.length}`)
  })
)

const post = (port: number, bytes: number) =>
  new Promise<number>((resolve, reject) => {
    const request = Http.request(
      { host: "127.0.0.1", port, path: "/echo", method: "POST", agent: false, headers: { "content-length": bytes } },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      }
    )
    // The server may answer 413 and close before the whole body is sent.
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" ? undefined : reject(error)))
    request.end(Buffer.alloc(bytes, 120))
  })

describe("request limits", () => {
  const scope = Effect.runSync(Scope.make())
  let port = 0
  beforeAll(async () => {
    const app = HttpRouter.serve(Echo, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provideMerge(Listener.layer({ host: "127.0.0.1", port: 0 })),
      Layer.provide(NodeHttpServer.layerHttpServices),
      Layer.provide(RequestLimits)
    )
    const address =
      Context.get(await Effect.runPromise(Layer.buildWithScope(app, scope)), HttpServer.HttpServer).address
    if (address._tag !== "UnixPathAddress") port = address.port
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("accepts a body of 1 MiB and answers 413 beyond", async () => {
    expect(await post(port, 1024 * 1024)).toBe(200)
    expect(await post(port, 1024 * 1024 + 1)).toBe(413)
  })
})
