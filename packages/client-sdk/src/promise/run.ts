import { Effect } from "effect"
import { type CallError, toClubApiError } from "./toClubApiError.ts"

/** Runs one call of the Promise face: its value, or a rejection with a `ClubApiError`. */
export const run = <A>(effect: Effect.Effect<A, CallError>): Promise<A> =>
  Effect.runPromise(effect.pipe(Effect.catchCause((cause) => Effect.flatMap(toClubApiError(cause), Effect.fail))))
