import { Context, type Effect } from "effect"
import type { StoredAnswer } from "./Idempotency.ts"
import type { UserId } from "../shared/Ids.ts"

/** One caller's use of one key for one request: `fingerprint` tells the request apart (method, path, body). */
export interface KeyedRequest {
  readonly caller: UserId
  readonly key: string
  readonly fingerprint: string
}

/** What the store found for a key. */
export type Claim =
  /**
   * The key is this request's now (it was free, expired, or abandoned); `attempt` names this hold of
   * it, and no other: the store never hands out the same attempt twice.
   */
  | { readonly _tag: "Claimed"; readonly attempt: string }
  /** Another request holds the key and has not answered yet: the fingerprint it was claimed with. */
  | { readonly _tag: "Running"; readonly fingerprint: string }
  /** A request answered under the key: the fingerprint it was claimed with, and its answer as kept. */
  | { readonly _tag: "Answered"; readonly fingerprint: string; readonly answer: StoredAnswer }

/**
 * Idempotency keys and the answers given under them, kept where every server instance sees them
 * (the database), so that a write retried through another instance is still answered once.
 * Times are epoch milliseconds, as the use-case's clock gives them; the store reads no clock of its
 * own.
 *
 * - A key is its caller's: the same key text of two callers is two keys, neither ever sees the other.
 * - A stored key keeps the fingerprint of the request that claimed it, that hold's `attempt`, when it
 *   was claimed, until when it is kept (its expiry), and once answered the answer: its status, its
 *   headers and its body byte for byte, as they were when it was kept (changing the bytes given, or
 *   those a claim returned, changes no later claim's).
 * - A key has expired at a time at or after its expiry, answered or not. It is abandoned when it has
 *   no answer and was claimed strictly before a claim's `abandonedBeforeEpochMs`; an answered key is
 *   never abandoned. Its retention counts from its claim: keeping an answer does not move the expiry.
 * - A hold that lost its key (released, or taken over as expired or abandoned) can neither answer nor
 *   release it any more: its attempt no longer matches.
 * - Each operation is atomic: concurrent operations, on any instance, never see one half done.
 */
export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /**
   * Claims the caller's key for `request` at `atEpochMs`, until `expiresAtEpochMs`. A key that is
   * free, expired or abandoned becomes this request's (`Claimed`): its fingerprint, a new attempt,
   * claimed at `atEpochMs`, no answer (one kept before is dropped). Otherwise the key is left as it
   * is and the claim says what holds it, whatever this request's fingerprint (the use-case compares
   * them): `Running` with the holder's fingerprint, or `Answered` with the fingerprint and the kept
   * answer. Of concurrent claims of one key exactly one is `Claimed`; the others see it held.
   *
   * A store may also answer `Running` with the request's own fingerprint when the key keeps changing
   * hands under the claim (claimed and released again by others between its looks), or when another
   * claim holds it inside an `atomically` that has not ended yet: busy, retry.
   */
  claim(
    request: KeyedRequest,
    atEpochMs: number,
    expiresAtEpochMs: number,
    abandonedBeforeEpochMs: number
  ): Effect.Effect<Claim>
  /**
   * Keeps `answer` for the key while `attempt` still holds it (otherwise changes nothing): claims get
   * it until the key expires, which this does not move. Also drops keys of any caller that have
   * expired at `atEpochMs`, other than this one, the oldest expiry first; a store may drop only a
   * batch of them per answer, of more than one key, so that the store stays bounded by the writes of
   * one retention period.
   */
  answer(request: KeyedRequest, attempt: string, answer: StoredAnswer, atEpochMs: number): Effect.Effect<void>
  /**
   * Frees the key, so that the request may be sent again, while `attempt` still holds it and it has
   * no answer; otherwise changes nothing (a kept answer stays until the key expires).
   */
  release(request: KeyedRequest, attempt: string): Effect.Effect<void>
  /**
   * Runs `effect` as one unit with the key operations made in it and every write of the store's
   * other ports made in it (the database: one transaction, which the repositories join): a claim,
   * the writes and the answer are all kept, or none is. While it runs, the key it claimed is held:
   * another claim of it finds it `Running`. When `effect` fails, or its end is not confirmed (the
   * store then dies with core's `WriteOutcomeUnknown`), nothing made in it is kept, or, for an end
   * not confirmed, all of it is: a later claim finds the key free or answered, never half done.
   */
  atomically<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R>
}>()("@club/core/IdempotencyKeys") {}
