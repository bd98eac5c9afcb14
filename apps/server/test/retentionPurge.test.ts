import { LoginAttempts } from "@club/core"
import { InMemoryRepositories, InMemoryStore } from "@club/core/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { purgeLoop } from "../src/retention/RetentionPurge.ts"

const hourMs = 3_600_000

describe("the server's retention purge", () => {
  it.effect("purges by itself, run after run, what passed its period, and nothing before", () =>
    Effect.gen(function*() {
      const t0 = Date.UTC(2026, 0, 5, 8, 0, 0)
      yield* TestClock.setTime(t0)
      const attempts = yield* LoginAttempts
      const { loginFailures } = yield* InMemoryStore
      yield* attempts.admit([{ key: "name:old", freeFailures: 5 }], [1000], t0, 0)
      yield* attempts.admit([{ key: "name:new", freeFailures: 5 }], [1000], t0 + 20 * hourMs, 0)
      yield* Effect.forkScoped(purgeLoop(hourMs))
      const hoursLater = (hours: number) =>
        Effect.gen(function*() {
          // An hour at a time, letting each run finish and sleep again before the clock moves on.
          for (let hour = 0; hour < hours; hour++) {
            yield* TestClock.adjust("1 hour")
            for (let turn = 0; turn < 20; turn++) yield* Effect.yieldNow
          }
        })
      // Login attempts are kept a day (the default) from their last failure.
      yield* hoursLater(23)
      expect([...loginFailures.keys()].sort()).toEqual(["name:new", "name:old"])
      yield* hoursLater(2)
      expect([...loginFailures.keys()]).toEqual(["name:new"])
      yield* hoursLater(20)
      expect([...loginFailures.keys()]).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(InMemoryRepositories)))
})
