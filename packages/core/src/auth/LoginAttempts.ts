import { Context, type Effect } from "effect"

/** One key a login attempt is throttled on, and how many failures it may have before it waits. */
export interface ThrottledKey {
  readonly key: string
  readonly freeFailures: number
}

/**
 * A refusal's `waitMs` runs until the longest wait is over, as far as the store saw it; 0 when a
 * concurrent attempt took the turn between the store's look and its count.
 */
export type Admission =
  | { readonly _tag: "Admitted" }
  | { readonly _tag: "Refused"; readonly waitMs: number }

/**
 * How long a key must wait after its last failure before its next attempt: nothing while it has
 * fewer failures than its free ones, then `delaysMs[0]`, `delaysMs[1]`, ... per further failure,
 * the last entry once they run out. The rule every store applies.
 */
export const waitAfter = (failures: number, freeFailures: number, delaysMs: ReadonlyArray<number>): number =>
  failures < freeFailures || delaysMs.length === 0
    ? 0
    : delaysMs[Math.min(failures - freeFailures, delaysMs.length - 1)]!

/**
 * Failed logins per key, kept where every server instance sees them (the database).
 *
 * An attempt is admitted for all its keys at once or for none, and an admitted attempt counts at
 * once as a failure of each key: a burst of concurrent attempts, on any instance, is admitted one
 * at a time, each seeing the ones before it. `succeeded` takes the count back.
 */
export class LoginAttempts extends Context.Service<LoginAttempts, {
  /**
   * Admits one attempt at `atEpochMs` when every key has waited `waitAfter` since its last failure,
   * and then counts it as a failure of every key (its last failure now `atEpochMs`); otherwise
   * changes nothing, and the refusal's `waitMs` is the longest wait left. A key with no wait (free
   * failures left) admits whatever `atEpochMs` is, and its last failure's time never moves back:
   * concurrent attempts are timed before they reach the store, so they may arrive out of order.
   * Failures of a key whose
   * last one is older than `forgetBeforeEpochMs` are forgotten first: it starts again from none. A
   * key listed twice counts once.
   */
  admit(
    keys: ReadonlyArray<ThrottledKey>,
    delaysMs: ReadonlyArray<number>,
    atEpochMs: number,
    forgetBeforeEpochMs: number
  ): Effect.Effect<Admission>
  /**
   * An admitted attempt succeeded: the `cleared` keys forget all their failures; the `released`
   * ones only that attempt's (one failure fewer, the key forgotten at none), their last failure's
   * time unchanged. A key in both lists is cleared; unknown keys are ignored.
   */
  succeeded(cleared: ReadonlyArray<string>, released: ReadonlyArray<string>): Effect.Effect<void>
  /** Drops every key whose last failure is older than `beforeEpochMs`, so that the store stays bounded. */
  forget(beforeEpochMs: number): Effect.Effect<void>
}>()("@club/core/LoginAttempts") {}
