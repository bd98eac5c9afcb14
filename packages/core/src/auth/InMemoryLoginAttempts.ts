import { Effect, Layer } from "effect"
import { type Admission, LoginAttempts, type ThrottledKey, waitAfter } from "./LoginAttempts.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

export const InMemoryLoginAttempts = Layer.effect(
  LoginAttempts,
  Effect.gen(function*() {
    const { loginFailures } = yield* InMemoryStore

    const admit = traced("LoginAttempts.admit")(
      function*(
        keys: ReadonlyArray<ThrottledKey>,
        delaysMs: ReadonlyArray<number>,
        atEpochMs: number,
        forgetBeforeEpochMs: number
      ) {
        // A key listed twice counts once (the last listing's free failures).
        const distinct = [...new Map(keys.map((key) => [key.key, key])).values()]
        const current = (key: string) => {
          const entry = loginFailures.get(key)
          return entry === undefined || entry.lastFailureEpochMs < forgetBeforeEpochMs ? undefined : entry
        }
        const waitMs = Math.max(
          0,
          ...distinct.map(({ freeFailures, key }) => {
            const entry = current(key)
            const wait = entry === undefined ? 0 : waitAfter(entry.failures, freeFailures, delaysMs)
            return wait === 0 ? 0 : entry!.lastFailureEpochMs + wait - atEpochMs
          })
        )
        if (waitMs > 0) return { _tag: "Refused", waitMs } satisfies Admission as Admission
        for (const { key } of distinct) {
          const entry = current(key)
          loginFailures.set(key, {
            failures: (entry?.failures ?? 0) + 1,
            lastFailureEpochMs: Math.max(entry?.lastFailureEpochMs ?? atEpochMs, atEpochMs)
          })
        }
        return { _tag: "Admitted" } satisfies Admission as Admission
      }
    )

    const succeeded = traced("LoginAttempts.succeeded")(
      function*(cleared: ReadonlyArray<string>, released: ReadonlyArray<string>) {
        for (const key of cleared) loginFailures.delete(key)
        for (const key of released) {
          const entry = loginFailures.get(key)
          if (entry === undefined) continue
          if (entry.failures <= 1) loginFailures.delete(key)
          else loginFailures.set(key, { ...entry, failures: entry.failures - 1 })
        }
      }
    )

    const forget = traced("LoginAttempts.forget")(function*(beforeEpochMs: number) {
      for (const [key, entry] of loginFailures) if (entry.lastFailureEpochMs < beforeEpochMs) loginFailures.delete(key)
    })

    return LoginAttempts.of({ admit, succeeded, forget })
  })
)
