import type { StoredAnswer } from "./Idempotency.ts"
import type { UserId } from "../shared/Ids.ts"

/** An idempotency key as kept: the request that holds it, that hold, its times, and once answered the answer. */
export interface HeldIdempotencyKey {
  readonly caller: UserId
  readonly key: string
  readonly fingerprint: string
  readonly attempt: string
  readonly claimedAtEpochMs: number
  readonly expiresAtEpochMs: number
  readonly answer: StoredAnswer | null
}

/**
 * The idempotency keys by caller and key, and the attempts handed out: an attempt is the count of
 * this table's claims, so that none is handed out twice, even after its key was dropped.
 */
export class IdempotencyKeyTable {
  readonly #keys = new Map<string, HeldIdempotencyKey>()
  #attempts = 0

  // A caller is an integer: the first space ends it, whatever the key holds.
  static #slot(caller: UserId, key: string): string {
    return `${caller} ${key}`
  }

  get(caller: UserId, key: string): HeldIdempotencyKey | undefined {
    return this.#keys.get(IdempotencyKeyTable.#slot(caller, key))
  }

  /** Stores the key over the one of its caller and key. */
  set(held: HeldIdempotencyKey): void {
    this.#keys.set(IdempotencyKeyTable.#slot(held.caller, held.key), held)
  }

  delete(caller: UserId, key: string): void {
    this.#keys.delete(IdempotencyKeyTable.#slot(caller, key))
  }

  /** Every key, in no particular order. */
  values(): IterableIterator<HeldIdempotencyKey> {
    return this.#keys.values()
  }

  /** An attempt no claim of this table was given before. */
  newAttempt(): string {
    return `attempt-${++this.#attempts}`
  }
}
