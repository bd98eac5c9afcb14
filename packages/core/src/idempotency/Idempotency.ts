import { Schema } from "effect"
import { withoutStackTrace } from "../shared/withoutStackTrace.ts"

/**
 * A client's name for one write it may send more than once (the `Idempotency-Key` of
 * draft-ietf-httpapi-idempotency-key-header): 1 to 255 visible ASCII characters, so that a UUID,
 * a ULID or any token a client library makes fits, and nothing that could break a header or a log.
 */
export const idempotencyKeyPattern = /^[\x21-\x7E]{1,255}$/u
export const IdempotencyKey = Schema.String.check(Schema.isPattern(idempotencyKeyPattern))
export type IdempotencyKey = typeof IdempotencyKey.Type

export const isIdempotencyKey = Schema.is(IdempotencyKey)

/** The key was already used, by the same caller, for another request (method, path or body differ). */
export class IdempotencyKeyReused
  extends withoutStackTrace(Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {}))
{
  readonly category = "Invalid" as const
  override get message() {
    return "This Idempotency-Key was used for a different request (method, path or body); use a new key for a new request"
  }
}

/** A request with the same key is still being served; its answer will be replayed once it is stored. */
export class IdempotencyKeyInUse
  extends withoutStackTrace(Schema.TaggedError<IdempotencyKeyInUse>()("IdempotencyKeyInUse", {}))
{
  readonly category = "Conflict" as const
  override get message() {
    return "A request with this Idempotency-Key is still being served; retry later to get its answer"
  }
}

export type IdempotencyError = IdempotencyKeyReused | IdempotencyKeyInUse

/** An answer as it is kept for replay: its status, the headers worth repeating, and its body. */
export interface StoredAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

/**
 * Whether an answer is kept for replay: a success (2xx), or a refusal that the same request would
 * meet again (4xx). Not a server failure (5xx, a 503 of an unreachable database included): the
 * request may succeed when sent again, so its key is freed for that.
 */
export const isReplayable = (status: number): boolean =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500)
