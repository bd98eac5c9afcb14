import { Context, type Effect } from "effect"
import type { StoredAnswer } from "../domain/Idempotency.ts"
import type { UserId } from "../domain/Ids.ts"

/** One caller's use of one key for one request: `fingerprint` tells the request apart (method, path, body). */
export interface KeyedRequest {
  readonly caller: UserId
  readonly key: string
  readonly fingerprint: string
}

/** What the store found for a key. */
export type Claim =
  /** The key is this request's now (it was free, expired, or abandoned); `attempt` names this hold of it. */
  | { readonly _tag: "Claimed"; readonly attempt: string }
  /** Another request holds the key and has not answered yet. */
  | { readonly _tag: "Running"; readonly fingerprint: string }
  /** A request answered under the key; its answer is kept until the key expires. */
  | { readonly _tag: "Answered"; readonly fingerprint: string; readonly answer: StoredAnswer }

/**
 * Idempotency keys and the answers given under them, kept where every server instance sees them
 * (the database), so that a write retried through another instance is still answered once.
 * Times are epoch milliseconds, as the use-case's clock gives them.
 */
export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /**
   * Claims the caller's key for `request` at `atEpochMs`, until `expiresAtEpochMs`; atomically, so
   * that of concurrent claims one wins. A key whose hold expired, or that has been running without an
   * answer since before `abandonedBeforeEpochMs` (its server stopped), is claimed again.
   */
  claim(
    request: KeyedRequest,
    atEpochMs: number,
    expiresAtEpochMs: number,
    abandonedBeforeEpochMs: number
  ): Effect.Effect<Claim>
  /**
   * Keeps `answer` for the claimed key (when `attempt` still holds it). Also drops some keys that
   * expired before `atEpochMs`, so that the store stays bounded by the writes of one retention period.
   */
  answer(request: KeyedRequest, attempt: string, answer: StoredAnswer, atEpochMs: number): Effect.Effect<void>
  /** Frees the claimed key without an answer (when `attempt` still holds it), so that the request may be sent again. */
  release(request: KeyedRequest, attempt: string): Effect.Effect<void>
}>()("@club/core/IdempotencyKeys") {}
