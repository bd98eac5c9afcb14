import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Option } from "effect"

// effect is patched (patches/effect@4.1.0.patch, docs/DECISIONS.md "A handler's services are
// merged into a request's context without copying it"): a merge keeps the request's own services
// as overlays over a merge of the shared base that is made once. These are the answers a plain
// merge gives, which the patched one must give too.
class Shared extends Context.Service<Shared, string>()("test/Shared") {}
class Replaced extends Context.Service<Replaced, string>()("test/Replaced") {}
class PerRequest extends Context.Service<PerRequest, string>()("test/PerRequest") {}
interface Added {
  readonly _: unique symbol
}
class HandlerOnly extends Context.Service<HandlerOnly, string>()("test/HandlerOnly") {}

const server = Context.make(Shared, "server").pipe(Context.add(Replaced, "server"))
const handler = Context.make(Replaced, "handler").pipe(Context.add(HandlerOnly, "handler"))
const request = (id: string) => server.pipe(Context.add(PerRequest, id), Context.add(Replaced, `request ${id}`))

const read = (context: Context.Context<never>) => ({
  shared: Option.getOrUndefined(Context.getOption(context, Shared)),
  replaced: Option.getOrUndefined(Context.getOption(context, Replaced)),
  perRequest: Option.getOrUndefined(Context.getOption(context, PerRequest)),
  handlerOnly: Option.getOrUndefined(Context.getOption(context, HandlerOnly))
})

describe("a handler's context merged into a request's", () => {
  it("answers the handler's services over the request's, and keeps the request's own", () => {
    const merged = Context.merge(request("1"), handler)
    assert.deepStrictEqual(read(merged), {
      shared: "server",
      replaced: "handler",
      perRequest: "1",
      handlerOnly: "handler"
    })
  })

  it("gives each request its own services when the same base is merged again", () => {
    const first = Context.merge(request("1"), handler)
    const second = Context.merge(request("2"), handler)
    assert.strictEqual(Context.get(first, PerRequest), "1")
    assert.strictEqual(Context.get(second, PerRequest), "2")
    assert.strictEqual(Context.get(second, Replaced), "handler")
  })

  it("keeps every service through later additions, past the point where overlays are flattened", () => {
    const added = Array.from({ length: 40 }, (_, i) => Context.Service<Added, number>(`test/Added${i}`))
    const context = added.reduce(
      (context, service, i) => Context.add(context, service, i),
      Context.merge(request("1"), handler) as Context.Context<Shared | Replaced | PerRequest | HandlerOnly | Added>
    )
    added.forEach((service, i) => assert.strictEqual(Context.get(context, service), i))
    assert.strictEqual(Context.get(context, Replaced), "handler")
    assert.strictEqual(Context.get(context, PerRequest), "1")
    assert.strictEqual(Context.get(context, Shared), "server")
  })

  it("answers the other context when one side is empty", () => {
    assert.strictEqual(Context.get(Context.merge(Context.empty(), handler), HandlerOnly), "handler")
    assert.strictEqual(Context.get(Context.merge(request("1"), Context.empty()), PerRequest), "1")
  })

  it.effect("is what a handler sees under Effect.provideContext", () =>
    Effect.gen(function*() {
      const seen = yield* Effect.context<Replaced | PerRequest>().pipe(
        Effect.provideContext(handler),
        Effect.provideContext(request("3"))
      )
      assert.strictEqual(Context.get(seen, Replaced), "handler")
      assert.strictEqual(Context.get(seen, PerRequest), "3")
    }))
})
