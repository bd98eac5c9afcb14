import { LoginAttempts } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { onEachDatabase } from "./support/onEachDatabase.ts"

onEachDatabase("LoginAttempts", (it) => {
  it.effect("counts failures per key since a time, and clears one key", () =>
    Effect.gen(function*() {
      const attempts = yield* LoginAttempts
      const t0 = 1_780_000_000_000
      yield* attempts.recordFailure(["name:ana", "client:10.0.0.1"], t0 + 1_000, t0)
      yield* attempts.recordFailure(["name:ana"], t0 + 2_000, t0)
      yield* attempts.recordFailure(["name:bob"], t0 + 3_000, t0)

      expect(yield* attempts.failuresSince(["name:ana", "client:10.0.0.1", "name:nobody"], t0)).toEqual([
        { key: "client:10.0.0.1", count: 1, oldestEpochMs: t0 + 1_000 },
        { key: "name:ana", count: 2, oldestEpochMs: t0 + 1_000 }
      ])
      expect(yield* attempts.failuresSince(["name:ana"], t0 + 2_000)).toEqual([
        { key: "name:ana", count: 1, oldestEpochMs: t0 + 2_000 }
      ])
      expect(yield* attempts.failuresSince([], t0)).toEqual([])

      yield* attempts.clear("name:ana")
      expect(yield* attempts.failuresSince(["name:ana", "client:10.0.0.1", "name:bob"], t0)).toEqual([
        { key: "client:10.0.0.1", count: 1, oldestEpochMs: t0 + 1_000 },
        { key: "name:bob", count: 1, oldestEpochMs: t0 + 3_000 }
      ])
    }))

  it.effect("forgets failures older than the window whenever one is recorded", () =>
    Effect.gen(function*() {
      const attempts = yield* LoginAttempts
      const t0 = 1_790_000_000_000
      yield* attempts.recordFailure(["name:old"], t0, 0)
      yield* attempts.recordFailure(["name:new"], t0 + 900_001, t0 + 1)
      expect(yield* attempts.failuresSince(["name:old", "name:new"], 0)).toEqual([
        { key: "name:new", count: 1, oldestEpochMs: t0 + 900_001 }
      ])
    }))
})
