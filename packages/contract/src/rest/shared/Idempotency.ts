import type { CurrentActor } from "@club/core"
import { HttpApiMiddleware } from "effect/http-api"
import { Conflict, InvalidRequest, UnprocessableContent } from "./Problems.ts"

/**
 * `Idempotency-Key` on a write (draft-ietf-httpapi-idempotency-key-header): the first request with
 * a key is served and its answer kept for the caller; a repeat gets that answer again, marked
 * `Idempotent-Replayed: true`. A key that is not 1 to 255 visible ASCII characters: 400; the key
 * used for another request: 422; a repeat while the first is still served: 409 with `Retry-After`.
 * Without the header nothing changes. Added to each write endpoint, so that it runs after
 * `Authentication` (keys are per caller) and before the request is decoded.
 */
export class Idempotency extends HttpApiMiddleware.Service<Idempotency, { requires: CurrentActor }>()(
  "@club/contract/Idempotency",
  { error: [InvalidRequest, UnprocessableContent, Conflict] }
) {}

/** The request header naming the key, and the answer header marking a replay. */
export const idempotencyKeyHeader = "idempotency-key"
export const idempotentReplayedHeader = "idempotent-replayed"
