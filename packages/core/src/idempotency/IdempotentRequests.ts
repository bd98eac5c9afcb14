import { Clock, Context, Effect, Layer } from "effect"
import { IdempotencyKeyInUse, IdempotencyKeyReused, isReplayable, type StoredAnswer } from "./Idempotency.ts"
import { IdempotencyKeys, type KeyedRequest } from "./IdempotencyKeys.ts"
import { traced } from "../shared/traced.ts"
import { IdempotencySettings } from "./IdempotencySettings.ts"

/** How a keyed request goes on: served now (it holds the key as `attempt`), or answered with what was kept. */
export type Begun =
  | { readonly _tag: "Fresh"; readonly attempt: string }
  | { readonly _tag: "Replay"; readonly answer: StoredAnswer }

/** How a keyed request that was served ended: served now with `value`, or answered with what was kept. */
export type Served<A> =
  | { readonly _tag: "Fresh"; readonly value: A }
  | { readonly _tag: "Replay"; readonly answer: StoredAnswer }

const make = Effect.gen(function*() {
  const keys = yield* IdempotencyKeys
  const begin = traced("IdempotentRequests.begin")(function*(request: KeyedRequest) {
    const settings = yield* IdempotencySettings
    const now = yield* Clock.currentTimeMillis
    const claim = yield* keys.claim(
      request,
      now,
      now + settings.retentionSeconds * 1000,
      now - settings.abandonAfterSeconds * 1000
    )
    switch (claim._tag) {
      case "Claimed":
        return { _tag: "Fresh", attempt: claim.attempt } satisfies Begun as Begun
      case "Running":
        return yield* (claim.fingerprint === request.fingerprint
          ? new IdempotencyKeyInUse()
          : new IdempotencyKeyReused())
      case "Answered":
        if (claim.fingerprint !== request.fingerprint) return yield* new IdempotencyKeyReused()
        return { _tag: "Replay", answer: claim.answer } satisfies Begun as Begun
    }
  })
  return {
    /**
     * A write sent with an idempotency key: served once per caller and key. The first request
     * claims the key; a repeat of it gets the kept answer; a repeat while the first is still
     * served is told to retry (`IdempotencyKeyInUse`); another request under the same key is
     * refused (`IdempotencyKeyReused`), since its answer would not be its own.
     */
    begin,
    /**
     * Serves a keyed write exactly once (Brandur Leach's "atomic phase"): the claim, `write` and
     * the answer `answerOf` reads off its value are one unit of the store (`atomically`), so the
     * key's record commits with the write's effects or not at all. A retry after a commit whose
     * confirmation was lost finds the answer; while the first still runs it is told to retry; after
     * a failure (nothing kept) it is served anew. A success with no answer that can be kept frees
     * the key inside the unit, as before, so a retry is served anew.
     */
    serve: <A, E, R>(
      request: KeyedRequest,
      write: Effect.Effect<A, E, R>,
      answerOf: (value: A) => StoredAnswer | undefined
    ): Effect.Effect<Served<A>, E | IdempotencyKeyInUse | IdempotencyKeyReused, R> =>
      keys.atomically(Effect.gen(function*() {
        const begun = yield* begin(request)
        if (begun._tag === "Replay") return begun satisfies Served<A> as Served<A>
        const value = yield* write
        const answer = answerOf(value)
        if (answer !== undefined && isReplayable(answer.status)) {
          yield* keys.answer(request, begun.attempt, answer, yield* Clock.currentTimeMillis)
        } else {
          yield* keys.release(request, begun.attempt)
        }
        return { _tag: "Fresh", value } satisfies Served<A> as Served<A>
      })).pipe(Effect.withSpan("IdempotentRequests.serve")),
    /**
     * The fresh request's answer: kept for replay when a repeat would deserve the same (see
     * `isReplayable`); otherwise, or when it has no answer that can be kept, the key is freed so
     * that the request may be sent again.
     */
    finish: traced("IdempotentRequests.finish")(
      function*(request: KeyedRequest, attempt: string, answer: StoredAnswer | undefined) {
        if (answer !== undefined && isReplayable(answer.status)) {
          yield* keys.answer(request, attempt, answer, yield* Clock.currentTimeMillis)
        } else {
          yield* keys.release(request, attempt)
        }
      }
    )
  }
})

export class IdempotentRequests extends Context.Service<IdempotentRequests, Effect.Success<typeof make>>()(
  "@club/core/IdempotentRequests"
) {
  static readonly layer = Layer.effect(IdempotentRequests, make)
}
