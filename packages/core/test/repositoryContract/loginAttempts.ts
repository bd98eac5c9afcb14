import { LoginAttempts } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type ContractSuite, StoredLoginFailures } from "./Contract.ts"

/** The stored keys among `keys`, as [key, failures, last failure's ms]. */
const stored = (...keys: ReadonlyArray<string>) => StoredLoginFailures.use((store) => store.of(keys))

// 1 s, then 2 s, then 4 s, the last repeating.
const delays = [1_000, 2_000, 4_000]

export const loginAttemptsContract: ContractSuite = {
  title: "LoginAttempts",
  tests: (it) => {
    it.effect("admits an attempt and counts it at once as a failure of every key; a key waits once its free failures are used", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_780_000_000_000
        const keys = [{ key: "name-at-address:a", freeFailures: 2 }, { key: "address:a", freeFailures: 3 }]
        expect(yield* attempts.admit(keys, delays, t0, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        expect(yield* stored("address:a", "name-at-address:a")).toEqual([["address:a", 1, t0], [
          "name-at-address:a",
          1,
          t0
        ]])
        expect(yield* attempts.admit(keys, delays, t0 + 10, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        // The name at the address has used its 2: 1 s from its last failure.
        expect(yield* attempts.admit(keys, delays, t0 + 400, t0 - 900_000)).toEqual({ _tag: "Refused", waitMs: 610 })
        expect(yield* stored("address:a", "name-at-address:a")).toEqual([["address:a", 2, t0 + 10], [
          "name-at-address:a",
          2,
          t0 + 10
        ]])
        // Another name at that address has its own count; the address its third free failure.
        expect(
          yield* attempts.admit(
            [{ key: "name-at-address:b", freeFailures: 2 }, keys[1]!],
            delays,
            t0 + 400,
            t0 - 900_000
          )
        )
          .toEqual({ _tag: "Admitted" })
        // The name's wait is over, but the address, at its 3rd failure, waits 1 s from t0 + 400: the longer wait answers.
        expect(yield* attempts.admit(keys, delays, t0 + 1_010, t0 - 900_000)).toEqual({ _tag: "Refused", waitMs: 390 })
        expect(yield* attempts.admit(keys, delays, t0 + 1_400, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        // Both one failure past their first wait: 2 s each.
        expect(yield* attempts.admit(keys, delays, t0 + 1_500, t0 - 900_000)).toEqual({
          _tag: "Refused",
          waitMs: 1_900
        })
        expect(yield* stored("address:a", "name-at-address:a")).toEqual([["address:a", 4, t0 + 1_400], [
          "name-at-address:a",
          3,
          t0 + 1_400
        ]])
      }))

    it.effect("attempts that arrive out of order: one timed before the last failure is admitted while free failures are left, and the last failure's time does not move back", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_780_000_000_000
        const keys = [{ key: "name-at-address:late", freeFailures: 3 }, { key: "address:late", freeFailures: 20 }]
        expect(yield* attempts.admit(keys, delays, t0 + 50, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        // Timed 50 ms earlier than the failure already counted (another request's), and admitted.
        expect(yield* attempts.admit(keys, delays, t0, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        expect(yield* stored("address:late", "name-at-address:late")).toEqual([["address:late", 2, t0 + 50], [
          "name-at-address:late",
          2,
          t0 + 50
        ]])
        expect(yield* attempts.admit(keys, delays, t0 + 20, t0 - 900_000)).toEqual({ _tag: "Admitted" })
        // The free failures used up: the wait runs from the latest failure, not from the last admitted.
        expect(yield* attempts.admit(keys, delays, t0 + 30, t0 - 900_000)).toEqual({ _tag: "Refused", waitMs: 1_020 })
      }))

    it.effect("the delays double up to the last one, which repeats", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const keys = [{ key: "address:doubling", freeFailures: 1 }]
        let at = 1_781_000_000_000
        expect(yield* attempts.admit(keys, delays, at, 0)).toEqual({ _tag: "Admitted" })
        const waits: Array<number> = []
        for (let i = 0; i < 5; i++) {
          const refused = yield* attempts.admit(keys, delays, at, 0)
          if (refused._tag !== "Refused") throw new Error("admitted while waiting")
          waits.push(refused.waitMs)
          at += refused.waitMs
          expect(yield* attempts.admit(keys, delays, at, 0)).toEqual({ _tag: "Admitted" })
        }
        expect(waits).toEqual([1_000, 2_000, 4_000, 4_000, 4_000])
      }))

    it.effect("forgets a key's failures once its last one left the window", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_782_000_000_000
        const keys = [{ key: "address:forgetful", freeFailures: 1 }]
        yield* attempts.admit(keys, delays, t0, t0 - 900_000)
        expect((yield* attempts.admit(keys, delays, t0 + 500, t0 - 900_000))._tag).toBe("Refused")
        // A window later the row is counted from 1 again, when admitting...
        expect(yield* attempts.admit(keys, delays, t0 + 900_001, t0 + 1)).toEqual({ _tag: "Admitted" })
        expect(yield* stored("address:forgetful")).toEqual([["address:forgetful", 1, t0 + 900_001]])
        // ...and `forget` drops it, and only such rows.
        yield* attempts.admit([{ key: "address:recent", freeFailures: 1 }], delays, t0 + 1_000_000, 0)
        yield* attempts.forget(t0 + 900_002)
        expect(yield* stored("address:forgetful", "address:recent")).toEqual([["address:recent", 1, t0 + 1_000_000]])
      }))

    it.effect("a success clears the cleared keys and takes back only its own attempt from the released ones", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_783_000_000_000
        const pair = { key: "name-at-address:ok", freeFailures: 5 }
        const address = { key: "address:ok", freeFailures: 20 }
        for (let i = 0; i < 3; i++) yield* attempts.admit([pair, address], delays, t0 + i, 0)
        yield* attempts.succeeded([pair.key], [address.key])
        expect(yield* stored(pair.key, address.key)).toEqual([[address.key, 2, t0 + 2]])
        // Released down to no failure, the row goes.
        yield* attempts.admit(
          [{ key: "name-at-address:once", freeFailures: 5 }, { key: "address:once", freeFailures: 20 }],
          delays,
          t0,
          0
        )
        yield* attempts.succeeded(["name-at-address:once"], ["address:once"])
        expect(yield* stored("name-at-address:once", "address:once")).toEqual([])
      }))

    it.effect("a key listed twice counts once; a refusal counts nothing", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_786_000_000_000
        const twice = [{ key: "address:twice", freeFailures: 1 }, { key: "address:twice", freeFailures: 1 }]
        expect(yield* attempts.admit(twice, delays, t0, 0)).toEqual({ _tag: "Admitted" })
        expect(yield* stored("address:twice")).toEqual([["address:twice", 1, t0]])
        expect(yield* attempts.admit(twice, delays, t0 + 1, 0)).toEqual({ _tag: "Refused", waitMs: 999 })
        expect(yield* stored("address:twice")).toEqual([["address:twice", 1, t0]])
      }))

    it.effect("a key both cleared and released is cleared; keys that hold nothing are ignored", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_787_000_000_000
        const key = { key: "address:both", freeFailures: 20 }
        for (let i = 0; i < 3; i++) yield* attempts.admit([key], delays, t0 + i, 0)
        yield* attempts.succeeded([key.key, "address:never-seen"], [key.key, "name-at-address:never-seen"])
        expect(yield* stored(key.key, "address:never-seen", "name-at-address:never-seen")).toEqual([])
      }))

    it.effect("of concurrent attempts that all find a key free, only its free failures are admitted", () =>
      Effect.gen(function*() {
        const attempts = yield* LoginAttempts
        const t0 = 1_784_000_000_000
        const keys = [{ key: "address:burst", freeFailures: 20 }, { key: "name-at-address:burst", freeFailures: 5 }]
        const outcomes = yield* Effect.all(
          Array.from({ length: 40 }, () => attempts.admit(keys, delays, t0, 0)),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter((outcome) => outcome._tag === "Admitted")).toHaveLength(5)
        const [address, pair] = yield* stored("address:burst", "name-at-address:burst")
        expect(pair).toEqual(["name-at-address:burst", 5, t0])
        // A refusal that lost the race after its look may have counted the address once: never fewer.
        expect(address![1]).toBeGreaterThanOrEqual(5)
      }))
  }
}
