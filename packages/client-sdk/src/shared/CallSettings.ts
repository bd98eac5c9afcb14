import { Context, Effect } from "effect"
import type { CallOptions } from "./ClientOptions.ts"

/** What the client saw of a call's last answer, for the error it may end with. */
export interface SeenAnswer {
  requestId?: string | undefined
  status?: number | undefined
  retryAfterMs?: number | undefined
}

/** What one call adds to its client's settings; the client fills `seen` in as the call runs. */
export interface CallSettings {
  readonly headers: Readonly<Record<string, string>>
  readonly idempotencyKey: string | undefined
  /** A call that may be repeated whatever its method says (a read made with POST). */
  readonly repeatable: boolean
  readonly seen: SeenAnswer
}

export const CallSettings = Context.Reference<CallSettings>("@club/client-sdk/CallSettings", {
  defaultValue: () => ({ headers: {}, idempotencyKey: undefined, repeatable: false, seen: {} })
})

/**
 * The Effect face's way to give one call the headers and idempotency key of `CallOptions`: provide
 * them around the call (`club.sessions.create(...).pipe(withCallOptions({ idempotencyKey }))`).
 * Its signal and timeout are Effect's own: interrupt the fiber, `Effect.timeout`.
 */
export const withCallOptions =
  (options: Pick<CallOptions, "headers" | "idempotencyKey">) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    CallSettings.use((current) =>
      Effect.provideService(effect, CallSettings, {
        ...current,
        headers: { ...current.headers, ...options.headers },
        idempotencyKey: options.idempotencyKey ?? current.idempotencyKey
      })
    )
