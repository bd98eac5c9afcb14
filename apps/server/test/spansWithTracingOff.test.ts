import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, References, Tracer } from "effect"

// effect is patched (patches/effect@4.1.0.patch, docs/DECISIONS.md "Spans cost nothing with
// tracing off"): with `References.TracerEnabled` false, `Effect.withSpan` runs its effect as it
// is, instead of providing a no-op span as the parent. With tracing on it still makes and ends its
// span around the effect, as unpatched. `Effect.useSpan` (as every SQL statement does) is not
// patched: with tracing off it hands over a no-op span, born ended.
const currentSpanName = Effect.map(
  Effect.option(Effect.currentParentSpan),
  Option.map((span) => span._tag === "Span" ? span.name : "external")
)

const recording = () => {
  const ended: Array<string> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = Tracer.nativeTracer.span(options)
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        ended.push(span.name)
        end(endTime, exit)
      }
      return span
    }
  })
  return { ended, tracer }
}

describe("Effect.withSpan", () => {
  it.effect("with tracing off, runs the effect without a parent span, data-last and data-first", () =>
    Effect.gen(function*() {
      const dataLast = yield* currentSpanName.pipe(
        Effect.withSpan("outer"),
        Effect.provideService(References.TracerEnabled, false)
      )
      const dataFirst = yield* Effect.withSpan(currentSpanName, "outer").pipe(
        Effect.provideService(References.TracerEnabled, false)
      )
      assert.isTrue(Option.isNone(dataLast))
      assert.isTrue(Option.isNone(dataFirst))
    }))

  it.effect("with tracing off, keeps the effect's answer and its failure", () =>
    Effect.gen(function*() {
      const answer = yield* Effect.succeed(42).pipe(
        Effect.withSpan("s"),
        Effect.provideService(References.TracerEnabled, false)
      )
      const failure = yield* Effect.flip(
        Effect.fail("no").pipe(Effect.withSpan("s"), Effect.provideService(References.TracerEnabled, false))
      )
      assert.strictEqual(answer, 42)
      assert.strictEqual(failure, "no")
    }))

  it.effect("with tracing on, makes the span the parent of the effect and ends it, nested spans included", () =>
    Effect.gen(function*() {
      const { ended, tracer } = recording()
      const names = yield* Effect.all([currentSpanName, currentSpanName.pipe(Effect.withSpan("inner"))]).pipe(
        Effect.withSpan("outer"),
        Effect.provideService(Tracer.Tracer, tracer)
      )
      assert.deepStrictEqual(names, [Option.some("outer"), Option.some("inner")])
      assert.deepStrictEqual(ended, ["inner", "outer"])
    }))
})

describe("Effect.useSpan", () => {
  it.effect("with tracing off, hands a span over and keeps the effect's answer and its failure", () =>
    Effect.gen(function*() {
      const answer = yield* Effect.useSpan("s", (span) => Effect.succeed(span._tag))
      const failure = yield* Effect.flip(Effect.useSpan("s", () => Effect.fail("no")))
      assert.strictEqual(answer, "Span")
      assert.strictEqual(failure, "no")
    }).pipe(Effect.provideService(References.TracerEnabled, false)))

  it.effect("with tracing on, ends its span when the effect ends, in success and in failure", () =>
    Effect.gen(function*() {
      const { ended, tracer } = recording()
      yield* Effect.useSpan("ok", () => Effect.void).pipe(Effect.provideService(Tracer.Tracer, tracer))
      yield* Effect.flip(Effect.useSpan("failed", () => Effect.fail("no"))).pipe(
        Effect.provideService(Tracer.Tracer, tracer)
      )
      assert.deepStrictEqual(ended, ["ok", "failed"])
    }))
})
