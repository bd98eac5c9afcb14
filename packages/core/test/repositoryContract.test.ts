import { InMemoryRepositories, InMemoryStore } from "@club/core/testing"
import { Effect, Layer } from "effect"
import {
  type Implementation,
  runContract,
  StoredIdempotencyKeys,
  StoredLoginFailures
} from "./repositoryContract/Contract.ts"
import { repositoryContract } from "./repositoryContract/suites.ts"
import { zonePropertiesContract } from "./repositoryContract/zoneProperties.ts"

/** The store's login failures, as the contract's tests look at them. */
const StoredFailuresInMemory = Layer.effect(
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

/** The store's idempotency keys, as the contract's tests look at them. */
const StoredKeysInMemory = Layer.effect(
  StoredIdempotencyKeys,
  Effect.gen(function*() {
    const { idempotencyKeys } = yield* InMemoryStore
    return StoredIdempotencyKeys.of({
      of: (caller, keys) =>
        Effect.sync(() => [...new Set(keys)].sort().filter((key) => idempotencyKeys.get(caller, key) !== undefined))
    })
  })
)

const inMemory: Implementation = {
  name: "in-memory",
  available: true,
  layer: Layer.mergeAll(StoredFailuresInMemory, StoredKeysInMemory).pipe(
    Layer.provideMerge(InMemoryRepositories)
  )
}

// The same suites run on PostgreSQL and embedded PGlite in packages/postgres-adapter/test.
for (const suite of repositoryContract) runContract(suite, [inMemory])

// The time-zone properties, with the budget of an in-process store (the databases run fewer cases).
runContract(zonePropertiesContract(200), [inMemory])
