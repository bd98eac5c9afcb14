import { Context, type Effect } from "effect"

/**
 * Failed logins, kept where every server instance sees them (the database), keyed by
 * `name:<user name>` and `client:<address>`.
 */
export class LoginAttempts extends Context.Service<LoginAttempts, {
  /** Failures per key since `sinceEpochMs`, and the time of the oldest of them; keys without any are absent. */
  failuresSince(keys: ReadonlyArray<string>, sinceEpochMs: number): Effect.Effect<
    ReadonlyArray<{ readonly key: string; readonly count: number; readonly oldestEpochMs: number }>
  >
  /** Also forgets every failure (of any key) older than `forgetBeforeEpochMs`, so the store stays bounded. */
  recordFailure(keys: ReadonlyArray<string>, atEpochMs: number, forgetBeforeEpochMs: number): Effect.Effect<void>
  /** After a successful login, the name's failures no longer count. */
  clear(key: string): Effect.Effect<void>
}>()("@club/core/LoginAttempts") {}
