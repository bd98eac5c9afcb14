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

  it("is the other context itself when that one was made from it by additions (a transaction's services), with nothing copied", () => {
    const requestContext = request("4")
    const transaction = requestContext.pipe(
      Context.add(HandlerOnly, "transaction"),
      Context.add(Replaced, "transaction")
    )
    const merged = Context.merge(requestContext, transaction)
    assert.strictEqual(merged, transaction)
    assert.deepStrictEqual(read(merged), {
      shared: "server",
      replaced: "transaction",
      perRequest: "4",
      handlerOnly: "transaction"
    })
  })

  it("copies as before when the other context lacks one of the request's own services", () => {
    const requestContext = request("5")
    const other = server.pipe(Context.add(HandlerOnly, "other"))
    const merged = Context.merge(requestContext, other)
    assert.notStrictEqual(merged, other)
    assert.deepStrictEqual(read(merged), {
      shared: "server",
      replaced: "server",
      perRequest: "5",
      handlerOnly: "other"
    })
  })

  it.effect("gives a finalizer the context it was added in, once the scope closes in the fiber's own", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      yield* Effect.scoped(
        Effect.addFinalizer(() =>
          Effect.map(Effect.context<Replaced | PerRequest>(), (context) => {
            seen.push(`${Context.get(context, Replaced)} ${Context.get(context, PerRequest)}`)
          })
        ).pipe(Effect.provideService(Replaced, "acquired"))
      ).pipe(Effect.provideContext(request("6")))
      assert.deepStrictEqual(seen, ["acquired 6"])
    }))
})
