import { InMemoryRepositories, InMemoryStore } from "@club/core/testing"
import { Effect, Layer } from "effect"
import { type Implementation, runContract, StoredLoginFailures } from "./repositoryContract/Contract.ts"
import { repositoryContract } from "./repositoryContract/suites.ts"

/** The store's login failures, as the contract's tests look at them. */
const StoredInMemory = Layer.effect(
  StoredLoginFailures,
  Effect.gen(function*() {
    const { loginFailures } = yield* InMemoryStore
    return StoredLoginFailures.of({
      of: (keys) =>
        Effect.sync(() =>
          [...new Set(keys)].sort().flatMap((key) => {
            const entry = loginFailures.get(key)
            return entry === undefined ? [] : [[key, entry.failures, entry.lastFailureEpochMs] as const]
          })
        )
    })
  })
)

const inMemory: Implementation = {
  name: "in-memory",
  available: true,
  layer: StoredInMemory.pipe(Layer.provideMerge(InMemoryRepositories))
}

// The same suites run on PostgreSQL and embedded PGlite in packages/postgres-adapter/test.
for (const suite of repositoryContract) runContract(suite, [inMemory])
