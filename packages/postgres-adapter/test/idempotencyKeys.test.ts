import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  IdempotencyKeys,
  IdempotentRequests,
  type KeyedRequest,
  type StoredAnswer,
  type UserId
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { onEachDatabase } from "./support/onEachDatabase.ts"

const t0 = 1_790_000_000_000
const day = 86_400_000
let counter = 0
/** A key no other test of the file uses, for caller 1 by default. */
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

const KeyCount = Schema.Array(Schema.Struct({ count: Schema.Int }))
const storedKeys = (prefix: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* Schema.decodeUnknownEffect(KeyCount)(
      yield* sql`SELECT count(*)::int AS count FROM idempotency_keys WHERE key LIKE ${`${prefix}%`}`
    )
    return row?.count ?? 0
  })

onEachDatabase("IdempotencyKeys", (it) => {
  it.effect("a first claim holds the key; a second finds it running, then answered, with the answer byte for byte", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const request = keyed()
      const first = yield* keys.claim(request, t0, t0 + day, t0 - 60_000)
      expect(first._tag).toBe("Claimed")
      expect(yield* keys.claim(request, t0 + 5, t0 + 5 + day, t0 - 60_000)).toEqual({ _tag: "Running", fingerprint: request.fingerprint })
      if (first._tag !== "Claimed") return
      yield* keys.answer(request, first.attempt, created, t0 + 10)
      const again = yield* keys.claim({ ...request, fingerprint: "other" }, t0 + 20, t0 + 20 + day, t0 - 60_000)
      expect(again).toEqual({ _tag: "Answered", fingerprint: request.fingerprint, answer: created })
    }))

  it.effect("keys are per caller: another caller's same key is a key of its own", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const mine = keyed("a", 1)
      const theirs = { ...mine, caller: 2 as UserId, fingerprint: "b" }
      expect((yield* keys.claim(mine, t0, t0 + day, t0 - 60_000))._tag).toBe("Claimed")
      expect((yield* keys.claim(theirs, t0, t0 + day, t0 - 60_000))._tag).toBe("Claimed")
    }))

  it.effect("a released key may be claimed again; a release or an answer by a hold that lost the key changes nothing", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const request = keyed()
      const first = yield* keys.claim(request, t0, t0 + day, t0 - 60_000)
      if (first._tag !== "Claimed") throw new Error("not claimed")
      yield* keys.release(request, first.attempt)
      const second = yield* keys.claim(request, t0 + 1, t0 + 1 + day, t0 - 60_000)
      if (second._tag !== "Claimed") throw new Error("not claimed again")
      expect(second.attempt).not.toBe(first.attempt)
      yield* keys.release(request, first.attempt)
      yield* keys.answer(request, first.attempt, created, t0 + 2)
      expect(yield* keys.claim(request, t0 + 3, t0 + 3 + day, t0 - 60_000)).toEqual({ _tag: "Running", fingerprint: request.fingerprint })
    }))

  it.effect("an expired key, and a key held without an answer since before the abandon time, are claimed again", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const answered = keyed()
      const first = yield* keys.claim(answered, t0, t0 + day, t0 - 60_000)
      if (first._tag !== "Claimed") throw new Error("not claimed")
      yield* keys.answer(answered, first.attempt, created, t0)
      expect((yield* keys.claim(answered, t0 + day - 1, t0 + 2 * day, t0 - 60_000))._tag).toBe("Answered")
      expect((yield* keys.claim(answered, t0 + day, t0 + 2 * day, t0 - 60_000))._tag).toBe("Claimed")

      const abandoned = keyed()
      expect((yield* keys.claim(abandoned, t0, t0 + day, t0 - 60_000))._tag).toBe("Claimed")
      expect((yield* keys.claim(abandoned, t0 + 59_000, t0 + day, t0 - 1_000))._tag).toBe("Running")
      expect((yield* keys.claim(abandoned, t0 + 61_000, t0 + day, t0 + 1_000))._tag).toBe("Claimed")
    }))

  it.effect("of 20 concurrent claims of one key, exactly one holds it", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const request = keyed()
      const claims = yield* Effect.all(
        Array.from({ length: 20 }, () => keys.claim(request, t0, t0 + day, t0 - 60_000)),
        { concurrency: "unbounded" }
      )
      expect(claims.filter((claim) => claim._tag === "Claimed")).toHaveLength(1)
      expect(claims.filter((claim) => claim._tag === "Running")).toHaveLength(19)
    }))

  it.effect("keeping an answer drops expired keys, so the table holds one retention period of keys", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const prefix = `cleanup-${Math.random().toString(36).slice(2)}-`
      for (let i = 0; i < 5; i++) {
        const request = { caller: 1 as UserId, key: `${prefix}${i}`, fingerprint: "f" }
        const claim = yield* keys.claim(request, t0, t0 + 1_000, t0 - 60_000)
        if (claim._tag === "Claimed" && i % 2 === 0) yield* keys.answer(request, claim.attempt, created, t0)
      }
      expect(yield* storedKeys(prefix)).toBe(5)
      const later = { caller: 1 as UserId, key: `${prefix}later`, fingerprint: "f" }
      const claim = yield* keys.claim(later, t0 + 2_000, t0 + 2_000 + day, t0)
      if (claim._tag !== "Claimed") throw new Error("not claimed")
      yield* keys.answer(later, claim.attempt, created, t0 + 2_000)
      expect(yield* storedKeys(prefix)).toBe(1)
    }))

  it.effect("IdempotentRequests: a repeat is replayed, a changed request refused, a running one busy; after the retention the key is new", () =>
    Effect.gen(function*() {
      const requests = yield* IdempotentRequests
      yield* TestClock.setTime(t0 + 10 * day)
      const request = keyed()

      const fresh = yield* requests.begin(request)
      if (fresh._tag !== "Fresh") throw new Error("not fresh")
      expect(yield* Effect.flip(requests.begin(request))).toBeInstanceOf(IdempotencyKeyInUse)
      expect(yield* Effect.flip(requests.begin({ ...request, fingerprint: "changed" }))).toBeInstanceOf(IdempotencyKeyReused)
      yield* requests.finish(request, fresh.attempt, created)

      yield* TestClock.adjust(day - 1)
      expect(yield* requests.begin(request)).toEqual({ _tag: "Replay", answer: created })
      expect(yield* Effect.flip(requests.begin({ ...request, fingerprint: "changed" }))).toBeInstanceOf(IdempotencyKeyReused)
      yield* TestClock.adjust(1)
      expect((yield* requests.begin({ ...request, fingerprint: "changed" }))._tag).toBe("Fresh")
    }).pipe(Effect.provide([IdempotentRequests.layer, TestClock.layer()])))

  it.effect("IdempotentRequests: 4xx answers are kept; a 5xx, or no answer, frees the key for a new try", () =>
    Effect.gen(function*() {
      const requests = yield* IdempotentRequests
      const refused = keyed()
      const first = yield* requests.begin(refused)
      if (first._tag !== "Fresh") throw new Error("not fresh")
      const conflict: StoredAnswer = { status: 409, headers: { "content-type": "application/problem+json" }, body: new Uint8Array([123, 125]) }
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
})
