import { Context, Effect, Exit, Layer } from "effect"
import type { StoredAnswer } from "./Idempotency.ts"
import { type Claim, IdempotencyKeys, type KeyedRequest } from "./IdempotencyKeys.ts"
import { traced } from "../shared/traced.ts"
import type { HeldIdempotencyKey } from "./IdempotencyKeyTable.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

/** A copy, so that no one changes what is kept by changing the bytes it gave or was given. */
const copyOf = (answer: StoredAnswer): StoredAnswer => ({
  status: answer.status,
  headers: { ...answer.headers },
  body: answer.body.slice()
})

/** The claims made inside the running `atomically`, undone if it fails; none outside one. */
const ClaimsOfUnit = Context.Reference<Array<{ readonly request: KeyedRequest; readonly attempt: string }> | undefined>(
  "@club/core/testing/InMemoryIdempotencyKeys/ClaimsOfUnit",
  { defaultValue: () => undefined }
)

export const InMemoryIdempotencyKeys = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function*() {
    const { idempotencyKeys } = yield* InMemoryStore

    /** Whether a claim at `atEpochMs` finds the key still held: neither expired nor abandoned. */
    const stillHeld = (held: HeldIdempotencyKey, atEpochMs: number, abandonedBeforeEpochMs: number) =>
      held.expiresAtEpochMs > atEpochMs && (held.answer !== null || held.claimedAtEpochMs >= abandonedBeforeEpochMs)

    /** The key, when `attempt` still holds it. */
    const heldBy = (request: KeyedRequest, attempt: string) => {
      const held = idempotencyKeys.get(request.caller, request.key)
      return held?.attempt === attempt ? held : undefined
    }

    const claim = traced("IdempotencyKeys.claim")(
      function*(request: KeyedRequest, atEpochMs: number, expiresAtEpochMs: number, abandonedBeforeEpochMs: number) {
        const held = idempotencyKeys.get(request.caller, request.key)
        if (held !== undefined && stillHeld(held, atEpochMs, abandonedBeforeEpochMs)) {
          return held.answer === null
            ? { _tag: "Running", fingerprint: held.fingerprint } satisfies Claim as Claim
            : { _tag: "Answered", fingerprint: held.fingerprint, answer: copyOf(held.answer) } satisfies Claim as Claim
        }
        const attempt = idempotencyKeys.newAttempt()
        idempotencyKeys.set({
          caller: request.caller,
          key: request.key,
          fingerprint: request.fingerprint,
          attempt,
          claimedAtEpochMs: atEpochMs,
          expiresAtEpochMs,
          answer: null
        })
        ;(yield* ClaimsOfUnit)?.push({ request, attempt })
        return { _tag: "Claimed", attempt } satisfies Claim as Claim
      }
    )

    // Every expired key is dropped at once: a scan of the map, as every lookup of this store is.
    const answer = traced("IdempotencyKeys.answer")(
      function*(request: KeyedRequest, attempt: string, stored: StoredAnswer, atEpochMs: number) {
        for (const expired of idempotencyKeys.values()) {
          if (expired.expiresAtEpochMs > atEpochMs) continue
          if (expired.caller === request.caller && expired.key === request.key) continue
          idempotencyKeys.delete(expired.caller, expired.key)
        }
        const held = heldBy(request, attempt)
        if (held !== undefined) idempotencyKeys.set({ ...held, answer: copyOf(stored) })
      }
    )

    const release = traced("IdempotencyKeys.release")(function*(request: KeyedRequest, attempt: string) {
      const held = heldBy(request, attempt)
      if (held !== undefined && held.answer === null) idempotencyKeys.delete(request.caller, request.key)
    })

    // A unit is atomic here by the store being in memory: nothing else runs between its steps but
    // what its own effect waits on, and a failure undoes its claims (the other in-memory
    // repositories have no rollback; their writes fail before they change anything).
    const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        const claims: Array<{ readonly request: KeyedRequest; readonly attempt: string }> = []
        return effect.pipe(
          Effect.provideService(ClaimsOfUnit, claims),
          Effect.onExit((exit) =>
            Exit.isFailure(exit)
              ? Effect.sync(() => {
                for (const { attempt, request } of claims) {
                  const held = heldBy(request, attempt)
                  if (held !== undefined) idempotencyKeys.delete(request.caller, request.key)
                }
              })
              : Effect.void
          )
        )
      })

    return IdempotencyKeys.of({ claim, answer, release, atomically })
  })
)
