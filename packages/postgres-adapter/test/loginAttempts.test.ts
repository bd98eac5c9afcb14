import { LoginAttempts } from "@club/core"
import { Effect } from "effect"
import { loginAttemptsContract } from "../../core/test/repositoryContract/loginAttempts.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(loginAttemptsContract)

onEachDatabase("LoginAttempts: row locks", (it) => {
  it.effect("concurrent admissions, successes and clean-ups of the same keys all complete (a smoke test for deadlocks: the lock order is what prevents them)", () =>
    Effect.gen(function*() {
      const attempts = yield* LoginAttempts
      const t0 = 1_785_000_000_000
      const delays = [1_000, 2_000, 4_000]
      const address = { key: "address:busy", freeFailures: 1_000 }
      const pair = (i: number) => ({ key: `name-at-address:busy-${i % 3}`, freeFailures: 1_000 })
      yield* Effect.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 3 === 0
            ? attempts.succeeded([pair(i).key], [address.key])
            : i % 3 === 1
            ? attempts.admit([pair(i), address], delays, t0 + i, t0 - 900_000)
            : attempts.forget(t0 - 900_000)),
        { concurrency: "unbounded", discard: true }
      )
    }))
})
