import type { Effect } from "effect"
import type { RestClient } from "./RestClient.ts"

type MethodOf<C> = { [G in keyof C]: C[G][keyof C[G]] }[keyof C]
type ErrorOf<F> = F extends (...args: never) => Effect.Effect<unknown, infer E, unknown> ? E : never

/** Every failure a REST call can end with: the contract's declared errors, plus transport and decoding errors. */
export type RestError = ErrorOf<MethodOf<RestClient>>
