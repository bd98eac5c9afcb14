import { Data } from "effect"

/** A Promise-face call that ran out of its `timeoutMs`. */
export class CallTimedOut extends Data.TaggedError("CallTimedOut")<{ readonly timeoutMs: number }> {}
