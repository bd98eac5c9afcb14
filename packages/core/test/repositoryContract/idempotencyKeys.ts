import {
  type Claim,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  IdempotencyKeys,
  IdempotentRequests,
  type KeyedRequest,
  type StoredAnswer,
  type UserId
} from "@club/core"
import { expect } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { type ContractSuite, StoredIdempotencyKeys } from "./Contract.ts"

const t0 = 1_790_000_000_000
const minute = 60_000
const day = 86_400_000

let counter = 0
/** A key no other test of the block uses, for caller 1 by default. */
const keyed = (fingerprint = "POST /session/create #1", caller = 1): KeyedRequest => ({
  caller: caller as UserId,
  key: `key-${++counter}-${Math.random().toString(36).slice(2)}`,
  fingerprint
})

const created: StoredAnswer = {
  status: 201,
  headers: { "content-type": "application/json", location: "/activite/7" },
  // Not UTF-8 on purpose: the body is kept byte for byte.
  body: new Uint8Array([123, 34, 105, 100, 34, 58, 55, 125, 0xff, 0x00])
}

/** The hold a claim got; the test fails when the key was not claimed. */
const attemptOf = (claim: Claim): string => {
  if (claim._tag !== "Claimed") throw new Error(`not claimed: ${JSON.stringify(claim)}`)
  return claim.attempt
}

/** The caller's keys among `keys` that the store holds, in code-point order. */
const stored = (caller: number, keys: ReadonlyArray<string>) =>
  StoredIdempotencyKeys.use((store) => store.of(caller as UserId, keys))

export const idempotencyKeysContract: ContractSuite = {
  title: "IdempotencyKeys",
  tests: (it) => {
    it.effect("a first claim holds the key; a second finds it running, then answered, with the answer byte for byte", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        const attempt = attemptOf(yield* keys.claim(request, t0, t0 + day, t0 - minute))
        expect(yield* keys.claim(request, t0 + 5, t0 + 5 + day, t0 - minute)).toEqual({
          _tag: "Running",
          fingerprint: request.fingerprint
        })
        yield* keys.answer(request, attempt, created, t0 + 10)
        // Whatever the fingerprint of the claim: the use-case compares them.
        const again = yield* keys.claim({ ...request, fingerprint: "other" }, t0 + 20, t0 + 20 + day, t0 - minute)
        expect(again).toEqual({ _tag: "Answered", fingerprint: request.fingerprint, answer: created })
      }))

    it.effect("keys are per caller: another caller's same key is a key of its own, claimed, answered and released apart", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const mine = keyed("a", 1)
        const theirs = { ...mine, caller: 2 as UserId, fingerprint: "b" }
        const myAttempt = attemptOf(yield* keys.claim(mine, t0, t0 + day, t0 - minute))
        const theirAttempt = attemptOf(yield* keys.claim(theirs, t0, t0 + day, t0 - minute))
        expect(theirAttempt).not.toBe(myAttempt)
        yield* keys.answer(mine, myAttempt, created, t0 + 1)
        expect(yield* keys.claim(theirs, t0 + 2, t0 + day, t0 - minute)).toEqual({ _tag: "Running", fingerprint: "b" })
        // My hold is not theirs: it frees nothing of theirs.
        yield* keys.release(theirs, myAttempt)
        expect(yield* keys.claim(theirs, t0 + 3, t0 + day, t0 - minute)).toEqual({ _tag: "Running", fingerprint: "b" })
        yield* keys.release(theirs, theirAttempt)
        expect((yield* keys.claim(theirs, t0 + 4, t0 + day, t0 - minute))._tag).toBe("Claimed")
        expect(yield* keys.claim(mine, t0 + 5, t0 + day, t0 - minute)).toEqual({
          _tag: "Answered",
          fingerprint: "a",
          answer: created
        })
      }))

    it.effect("a released key may be claimed again, under a new attempt; a release or an answer by a hold that lost the key changes nothing", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        const first = attemptOf(yield* keys.claim(request, t0, t0 + day, t0 - minute))
        yield* keys.release(request, first)
        const second = attemptOf(yield* keys.claim(request, t0 + 1, t0 + 1 + day, t0 - minute))
        expect(second).not.toBe(first)
        yield* keys.release(request, first)
        yield* keys.answer(request, first, created, t0 + 2)
        expect(yield* keys.claim(request, t0 + 3, t0 + 3 + day, t0 - minute)).toEqual({
          _tag: "Running",
          fingerprint: request.fingerprint
        })
      }))

    it.effect("a kept answer is not released: it stays until the key expires", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        const attempt = attemptOf(yield* keys.claim(request, t0, t0 + day, t0 - minute))
        yield* keys.answer(request, attempt, created, t0 + 1)
        yield* keys.release(request, attempt)
        expect(yield* keys.claim(request, t0 + 2, t0 + 2 + day, t0 - minute))
          .toEqual({ _tag: "Answered", fingerprint: request.fingerprint, answer: created })
      }))

    it.effect("a key expires at its expiry, answered or not, counted from its claim; the claim that takes it over drops the old answer", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const answered = keyed()
        const first = attemptOf(yield* keys.claim(answered, t0, t0 + day, t0 - minute))
        // Answered 5 minutes later: the retention still counts from the claim.
        yield* keys.answer(answered, first, created, t0 + 5 * minute)
        expect((yield* keys.claim(answered, t0 + day - 1, t0 + 2 * day, t0 - minute))._tag).toBe("Answered")
        const next = { ...answered, fingerprint: "next" }
        attemptOf(yield* keys.claim(next, t0 + day, t0 + 2 * day, t0 + day - minute))
        expect(yield* keys.claim(answered, t0 + day + 1, t0 + 2 * day, t0 + day - minute)).toEqual({
          _tag: "Running",
          fingerprint: "next"
        })
        // The first hold lost the key: its answer is not kept again.
        yield* keys.answer(answered, first, created, t0 + day + 2)
        expect(yield* keys.claim(answered, t0 + day + 3, t0 + 2 * day, t0 + day - minute)).toEqual({
          _tag: "Running",
          fingerprint: "next"
        })

        // Without an answer, a key expires too, even before it could be called abandoned.
        const running = keyed()
        attemptOf(yield* keys.claim(running, t0, t0 + 1_000, t0 - minute))
        expect((yield* keys.claim(running, t0 + 999, t0 + day, t0 - minute))._tag).toBe("Running")
        expect((yield* keys.claim(running, t0 + 1_000, t0 + day, t0 - minute))._tag).toBe("Claimed")
      }))

    it.effect("a key held without an answer since strictly before the abandonment time is taken over, and its first hold loses it; an answered key never is", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const abandoned = keyed()
        const first = attemptOf(yield* keys.claim(abandoned, t0, t0 + day, t0 - minute))
        expect((yield* keys.claim(abandoned, t0 + 59_000, t0 + day, t0 - 1_000))._tag).toBe("Running")
        // Claimed at the bound itself, not before it.
        expect((yield* keys.claim(abandoned, t0 + minute, t0 + day, t0))._tag).toBe("Running")
        const retry = { ...abandoned, fingerprint: "retry" }
        const second = attemptOf(yield* keys.claim(retry, t0 + 61_000, t0 + day, t0 + 1_000))
        expect(second).not.toBe(first)
        // The stopped hold comes back: it can neither answer nor free the key.
        yield* keys.answer(abandoned, first, created, t0 + 62_000)
        yield* keys.release(abandoned, first)
        expect(yield* keys.claim(abandoned, t0 + 63_000, t0 + day, t0 + 3_000)).toEqual({
          _tag: "Running",
          fingerprint: "retry"
        })
        yield* keys.answer(retry, second, created, t0 + 64_000)
        expect(yield* keys.claim(abandoned, t0 + 65_000, t0 + day, t0 + 65_000))
          .toEqual({ _tag: "Answered", fingerprint: "retry", answer: created })

        const answered = keyed()
        yield* keys.answer(answered, attemptOf(yield* keys.claim(answered, t0, t0 + day, t0 - minute)), created, t0 + 1)
        expect(yield* keys.claim(answered, t0 + day - 1, t0 + 2 * day, t0 + day - minute))
          .toEqual({ _tag: "Answered", fingerprint: answered.fingerprint, answer: created })
      }))

    it.effect("of 20 concurrent claims of one key, exactly one holds it", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        const claims = yield* Effect.all(
          Array.from({ length: 20 }, () => keys.claim(request, t0, t0 + day, t0 - minute)),
          { concurrency: "unbounded" }
        )
        expect(claims.filter((claim) => claim._tag === "Claimed")).toHaveLength(1)
        expect(claims.filter((claim) => claim._tag === "Running")).toHaveLength(19)
      }))

    it.effect("concurrent claims and releases of one key: every claim answers, no two hold it at once, and once every hold let go the key is free", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        let holding = 0
        let mostAtOnce = 0
        const claims = yield* Effect.all(
          Array.from({ length: 30 }, () =>
            Effect.gen(function*() {
              const claim = yield* keys.claim(request, t0, t0 + day, t0 - minute)
              if (claim._tag === "Claimed") {
                mostAtOnce = Math.max(mostAtOnce, ++holding)
                yield* Effect.yieldNow
                holding--
                yield* keys.release(request, claim.attempt)
              }
              return claim
            })),
          { concurrency: "unbounded" }
        )
        expect(claims.filter((claim) => claim._tag === "Claimed").length).toBeGreaterThanOrEqual(1)
        for (const claim of claims) {
          expect(claim._tag === "Claimed" || (claim._tag === "Running" && claim.fingerprint === request.fingerprint))
            .toBe(true)
        }
        expect(mostAtOnce).toBe(1)
        expect((yield* keys.claim(request, t0 + 1, t0 + day, t0 - minute))._tag).toBe("Claimed")
      }))

    it.effect("keeping an answer drops the expired keys of every caller, answered or not, but not its own key nor keys still kept", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const prefix = `cleanup-${Math.random().toString(36).slice(2)}-`
        const named = (name: string, caller = 1): KeyedRequest => ({
          caller: caller as UserId,
          key: `${prefix}${name}`,
          fingerprint: "f"
        })
        const expiring = [0, 1, 2, 3, 4].map((i) => named(String(i)))
        for (const [i, request] of expiring.entries()) {
          const attempt = attemptOf(yield* keys.claim(request, t0, t0 + 1_000, t0 - minute))
          if (i % 2 === 0) yield* keys.answer(request, attempt, created, t0)
        }
        const theirs = named("theirs", 2)
        attemptOf(yield* keys.claim(theirs, t0, t0 + 1_000, t0 - minute))
        const kept = named("kept")
        attemptOf(yield* keys.claim(kept, t0, t0 + 3_000, t0 - minute))
        // Its own key has expired too when its answer comes.
        const late = named("late")
        const lateAttempt = attemptOf(yield* keys.claim(late, t0, t0 + 1_000, t0 - minute))
        const mine = [...expiring, kept, late].map((request) => request.key)
        expect(yield* stored(1, mine)).toHaveLength(7)
        expect(yield* stored(2, [theirs.key])).toEqual([theirs.key])

        yield* keys.answer(late, lateAttempt, created, t0 + 2_000)
        expect(yield* stored(1, mine)).toEqual([kept.key, late.key])
        expect(yield* stored(2, [theirs.key])).toEqual([])
      }))

    it.effect("an answer is kept as it was: changing the bytes given, or those a claim returned, changes no later claim's", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const request = keyed()
        const headers: Record<string, string> = { "content-type": "text/plain" }
        const body = new Uint8Array([104, 105])
        const attempt = attemptOf(yield* keys.claim(request, t0, t0 + day, t0 - minute))
        yield* keys.answer(request, attempt, { status: 200, headers, body }, t0)
        headers["content-type"] = "changed"
        body[0] = 0
        const answered = {
          _tag: "Answered",
          fingerprint: request.fingerprint,
          answer: { status: 200, headers: { "content-type": "text/plain" }, body: new Uint8Array([104, 105]) }
        }
        const first = yield* keys.claim(request, t0 + 1, t0 + day, t0 - minute)
        expect(first).toEqual(answered)
        if (first._tag === "Answered") first.answer.body[1] = 0
        expect(yield* keys.claim(request, t0 + 2, t0 + day, t0 - minute)).toEqual(answered)
      }))

    it.effect("IdempotentRequests: a repeat is replayed, a changed request refused, a running one busy; after the retention the key is new", () =>
      Effect.gen(function*() {
        const requests = yield* IdempotentRequests
        yield* TestClock.setTime(t0 + 10 * day)
        const request = keyed()

        const fresh = yield* requests.begin(request)
        if (fresh._tag !== "Fresh") throw new Error("not fresh")
        expect(yield* Effect.flip(requests.begin(request))).toBeInstanceOf(IdempotencyKeyInUse)
        expect(yield* Effect.flip(requests.begin({ ...request, fingerprint: "changed" }))).toBeInstanceOf(
          IdempotencyKeyReused
        )
        yield* requests.finish(request, fresh.attempt, created)

        yield* TestClock.adjust(day - 1)
        expect(yield* requests.begin(request)).toEqual({ _tag: "Replay", answer: created })
        expect(yield* Effect.flip(requests.begin({ ...request, fingerprint: "changed" }))).toBeInstanceOf(
          IdempotencyKeyReused
        )
        yield* TestClock.adjust(1)
        expect((yield* requests.begin({ ...request, fingerprint: "changed" }))._tag).toBe("Fresh")
      }).pipe(Effect.provide([IdempotentRequests.layer, TestClock.layer()])))

    it.effect("IdempotentRequests: 4xx answers are kept; a 5xx, or no answer, frees the key for a new try", () =>
      Effect.gen(function*() {
        const requests = yield* IdempotentRequests
        const refused = keyed()
        const first = yield* requests.begin(refused)
        if (first._tag !== "Fresh") throw new Error("not fresh")
        const conflict: StoredAnswer = {
          status: 409,
          headers: { "content-type": "application/problem+json" },
          body: new Uint8Array([123, 125])
        }
        yield* requests.finish(refused, first.attempt, conflict)
        expect(yield* requests.begin(refused)).toEqual({ _tag: "Replay", answer: conflict })

        for (const answer of [{ ...conflict, status: 500 }, { ...conflict, status: 503 }, undefined]) {
          const failed = keyed()
          const begun = yield* requests.begin(failed)
          if (begun._tag !== "Fresh") throw new Error("not fresh")
          yield* requests.finish(failed, begun.attempt, answer)
          const retried = yield* Effect.exit(requests.begin(failed))
          expect(Exit.isSuccess(retried) && retried.value._tag).toBe("Fresh")
        }
      }).pipe(Effect.provide(IdempotentRequests.layer)))

    it.effect("IdempotentRequests.serve: the answer is kept with the write; a failed write keeps nothing, so its key is served anew", () =>
      Effect.gen(function*() {
        const requests = yield* IdempotentRequests
        const request = keyed()
        const served = yield* requests.serve(request, Effect.succeed("written"), () => created)
        expect(served).toEqual({ _tag: "Fresh", value: "written" })
        expect(yield* requests.begin(request)).toEqual({ _tag: "Replay", answer: created })
        expect(yield* requests.serve(request, Effect.succeed("again"), () => created)).toEqual({
          _tag: "Replay",
          answer: created
        })

        const failing = keyed()
        expect(yield* Effect.flip(requests.serve(failing, Effect.fail("refused"), () => created))).toBe("refused")
        expect(Exit.isFailure(yield* Effect.exit(requests.serve(failing, Effect.die("lost"), () => created)))).toBe(
          true
        )
        expect((yield* requests.begin(failing))._tag).toBe("Fresh")
      }).pipe(Effect.provide(IdempotentRequests.layer)))

    it.effect("IdempotentRequests.serve: of two serves of one key at once, the write runs once; the other is busy or replays", () =>
      Effect.gen(function*() {
        const requests = yield* IdempotentRequests
        const request = keyed()
        let writes = 0
        const release = yield* Deferred.make<void>()
        const write = Effect.gen(function*() {
          writes++
          yield* Deferred.await(release)
          return writes
        })
        const first = yield* Effect.forkChild(requests.serve(request, write, () => created))
        yield* Effect.sleep("50 millis")
        const second = yield* Effect.forkChild(Effect.result(requests.serve(request, write, () => created)))
        yield* Effect.sleep("50 millis")
        yield* Deferred.succeed(release, undefined)
        expect(yield* Fiber.join(first)).toEqual({ _tag: "Fresh", value: 1 })
        const other = yield* Fiber.join(second)
        expect(writes).toBe(1)
        if (other._tag === "Failure") expect(other.failure).toBeInstanceOf(IdempotencyKeyInUse)
        else expect(other.success).toEqual({ _tag: "Replay", answer: created })
      }).pipe(Effect.provide(IdempotentRequests.layer)))
  }
}
