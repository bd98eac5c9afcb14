import { Effect, Layer } from "effect"
import { type Admission, LoginAttempts, waitAfter } from "../../src/index.ts"

interface Stored {
  readonly failures: number
  readonly lastFailureEpochMs: number
}

/**
 * The LoginAttempts port in memory, as the database adapter implements it: the same admission
 * rule (`waitAfter`), all keys or none, an admitted attempt counted at once. `stored` is there for
 * tests to look at.
 */
export const inMemoryLoginAttempts = () => {
  const stored = new Map<string, Stored>()
  const layer = Layer.succeed(LoginAttempts, LoginAttempts.of({
    admit: (keys, delaysMs, atEpochMs, forgetBeforeEpochMs) =>
      Effect.sync((): Admission => {
        const current = (key: string) => {
          const entry = stored.get(key)
          return entry === undefined || entry.lastFailureEpochMs < forgetBeforeEpochMs ? undefined : entry
        }
        const waitMs = Math.max(0, ...keys.map(({ freeFailures, key }) => {
          const entry = current(key)
          return entry === undefined ? 0 : entry.lastFailureEpochMs + waitAfter(entry.failures, freeFailures, delaysMs) - atEpochMs
        }))
        if (waitMs > 0) return { _tag: "Refused", waitMs }
        for (const { key } of keys) stored.set(key, { failures: (current(key)?.failures ?? 0) + 1, lastFailureEpochMs: atEpochMs })
        return { _tag: "Admitted" }
      }),
    succeeded: (cleared, released) =>
      Effect.sync(() => {
        for (const key of cleared) stored.delete(key)
        for (const key of released) {
          const entry = stored.get(key)
          if (entry === undefined) continue
          if (entry.failures <= 1) stored.delete(key)
          else stored.set(key, { ...entry, failures: entry.failures - 1 })
        }
      }),
    forget: (beforeEpochMs) =>
      Effect.sync(() => {
        for (const [key, entry] of stored) if (entry.lastFailureEpochMs < beforeEpochMs) stored.delete(key)
      })
  }))
  return { stored, layer }
}
