import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { jsonArrayResponse } from "../src/shared/jsonArrayResponse.ts"

class DatabaseGone extends Error {}

const bodyText = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const body = response.body
    if (body._tag === "Uint8Array") return new TextDecoder().decode(body.body)
    if (body._tag !== "Stream") return yield* Effect.die(new Error(`unexpected body ${body._tag}`))
    const chunks = yield* Stream.runCollect(body.stream)
    return Buffer.concat(chunks as Array<Uint8Array>).toString("utf8")
  })

/** The response, built and written in one request scope, as the HTTP server does. */
const answer = <A, E>(items: Stream.Stream<A, E>, toJson: (a: A) => unknown = (a) => a) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const exit = yield* Effect.exit(
      Effect.flatMap(jsonArrayResponse(items, toJson), (response) =>
        Effect.map(Effect.exit(bodyText(response)), (body) => ({ response, body }))).pipe(
          Effect.provideService(Scope.Scope, scope)
        )
    )
    yield* Scope.close(scope, Exit.void)
    return exit
  })

describe("a JSON array answered while it is read", () => {
  it.effect("is the same JSON as the whole list, across many batches", () =>
    Effect.gen(function*() {
      const batches = Array.from({ length: 7 }, (_, b) =>
        Array.from({ length: 300 }, (_, i) => ({ id: b * 300 + i, name: `s"${i}é` })))
      const exit = yield* answer(Stream.fromArrays(...batches), (s) => ({ ...s, extra: null }))
      const { body, response } = yield* exit
      expect(response.status).toBe(200)
      expect(response.body._tag === "Stream" && response.body.contentType).toBe("application/json")
      expect(JSON.parse(yield* body)).toEqual(batches.flat().map((s) => ({ ...s, extra: null })))
    }))

  it.effect("answers [] for no element", () =>
    Effect.gen(function*() {
      const { body } = yield* yield* answer(Stream.empty)
      expect(yield* body).toBe("[]")
    }))

  it.effect("fails before answering when the first batch cannot be read, so the caller still gets its error", () =>
    Effect.gen(function*() {
      const exit = yield* answer(Stream.die(new DatabaseGone()))
      expect(Exit.hasDies(exit)).toBe(true)
    }))

  it.effect("cuts the body, never completes it, when reading fails after the answer started", () =>
    Effect.gen(function*() {
      const items = Stream.fromArrays([1, 2], [3]).pipe(Stream.concat(Stream.die(new DatabaseGone())))
      const { body, response } = yield* yield* answer(items)
      expect(response.status).toBe(200)
      expect(Exit.isFailure(body)).toBe(true)
    }))
})
