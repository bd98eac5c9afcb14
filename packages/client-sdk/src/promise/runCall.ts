import { Effect, Exit } from "effect"
import { CallTimedOut } from "../shared/CallEnded.ts"
import { type CallError, toClubApiError } from "../shared/toClubApiError.ts"
import { CallSettings, type SeenAnswer } from "../shared/CallSettings.ts"
import type { CallOptions } from "../shared/ClientOptions.ts"

/**
 * Runs one call of the Promise face with its options: its headers and idempotency key for the
 * client to send, its timeout around the whole call (retries included), its signal as the call's
 * interruption. Resolves with the answer, or rejects with a `ClubApiError`.
 */
export const runCall = async <A>(
  effect: Effect.Effect<A, CallError>,
  options: CallOptions | undefined,
  defaultTimeoutMs: number | undefined
): Promise<A> => {
  const seen: SeenAnswer = {}
  const settings: CallSettings = {
    headers: options?.headers ?? {},
    idempotencyKey: options?.idempotencyKey,
    repeatable: false,
    seen
  }
  const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs
  const timed: Effect.Effect<A, CallError> = timeoutMs === undefined
    ? effect
    : Effect.timeoutOrElse(effect, { duration: timeoutMs, orElse: () => Effect.fail(new CallTimedOut({ timeoutMs })) })
  const exit = await Effect.runPromiseExit(Effect.provideService(timed, CallSettings, settings), {
    signal: options?.signal
  })
  if (Exit.isSuccess(exit)) return exit.value
  throw await Effect.runPromise(toClubApiError(exit.cause, seen))
}
