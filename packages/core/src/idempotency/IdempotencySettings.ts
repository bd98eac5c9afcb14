import { Context } from "effect"

export interface IdempotencySettings {
  /** How long an answer given under an idempotency key is replayed; then the key is free again. */
  readonly retentionSeconds: number
  /**
   * How long a key may be held without an answer before another request may claim it: the server
   * that held it stopped (or lost its database) while serving. Far longer than any write takes.
   */
  readonly abandonAfterSeconds: number
}

/** A day, as the IETF draft and the usual APIs keep keys: long enough for any retry of a client that is still running. */
export const defaultIdempotencySettings: IdempotencySettings = {
  retentionSeconds: 86_400,
  abandonAfterSeconds: 60
}

export const IdempotencySettings = Context.Reference<IdempotencySettings>("@club/core/IdempotencySettings", {
  defaultValue: () => defaultIdempotencySettings
})
