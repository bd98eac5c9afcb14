import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { traced } from "../src/index.ts"

const limit = () => (Error as { stackTraceLimit?: number }).stackTraceLimit

describe("traced: Effect.fn without the call site's stack trace", () => {
  it.effect("runs each call in a span of its name, nested in the caller's", () =>
    Effect.gen(function*() {
      const inner = traced("Inner.read")(function*(id: number) {
        const span = yield* Effect.currentSpan
        return { id, name: span.name, parent: Option.map(span.parent, (parent) => (parent as { name?: string }).name) }
      })
      const outer = traced("Outer.get")(function*(id: number) {
        return yield* inner(id)
      })
      expect(yield* outer(7)).toEqual({ id: 7, name: "Inner.read", parent: Option.some("Outer.get") })
    }))

  it.effect("applies its pipeables to each call, with the call's arguments, as Effect.fn does", () =>
    Effect.gen(function*() {
      const double = traced("Numbers.double")(
        function*(n: number) {
          return n * 2
        },
        (effect, n) => Effect.map(effect, (doubled) => `${n} -> ${doubled}`)
      )
      expect(yield* double(4)).toBe("4 -> 8")
    }))

  it.effect("fails as its body does", () =>
    Effect.gen(function*() {
      const refuse = traced("Refuse")(function*() {
        return yield* Effect.fail("no")
      })
      expect(yield* Effect.flip(refuse())).toBe("no")
    }))

  it("builds no Error on a call (Effect.fn builds one on every call)", () => {
    const built: Array<number> = []
    const Original = globalThis.Error
    const counting = new Proxy(Original, {
      construct: (target, args, newTarget) => {
        built.push(1)
        return Reflect.construct(target, args, newTarget)
      }
    })
    const plain = traced("Plain")(function*() {
      return 1
    })
    const fn = Effect.fn("Fn")(function*() {
      return 1
    })
    globalThis.Error = counting
    try {
      plain()
      const afterTraced = built.length
      fn()
      expect({ traced: afterTraced, fn: built.length - afterTraced }).toEqual({ traced: 0, fn: 1 })
    } finally {
      globalThis.Error = Original
    }
    expect(limit()).toBeGreaterThan(0)
  })
})
