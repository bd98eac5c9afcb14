import {
  CurrentActor,
  IdempotentRequests,
  isIdempotencyKey,
  isReplayable,
  type IdempotencyError,
  type KeyedRequest,
  type StoredAnswer
} from "@club/core"
import { Cause, Effect, Exit, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  Conflict,
  Idempotency,
  idempotencyKeyHeader,
  idempotentReplayedHeader,
  InvalidRequest,
  UnprocessableContent
} from "@club/contract/rest"
import { createHash } from "node:crypto"
import { requestPath } from "./problems.ts"
import { respondWithHeaders } from "./respond.ts"
import { mayCarryBody } from "./mayCarryBody.ts"

/** The answer headers a replay repeats: the rest (request id, security headers) belong to each answer. */
const keptHeaders = ["location", "retry-after"]

/** Seconds a client is asked to wait before repeating a request whose first is still served. */
const retryWhileRunningSeconds = 1

/** What tells one request from another under the same key: its method, its target (path and query) and its body's bytes. */
const fingerprintOf = (request: HttpServerRequest.HttpServerRequest, body: ArrayBuffer) =>
  createHash("sha256").update(`${request.method} ${request.url}\n`).update(new Uint8Array(body)).digest("base64url")

/** The answer as kept for replay, or undefined when its body is not held in memory (a stream). */
const storedAnswerOf = (response: HttpServerResponse.HttpServerResponse): StoredAnswer | undefined => {
  const body = response.body
  if (body._tag !== "Uint8Array" && body._tag !== "Empty") return undefined
  const headers: Record<string, string> = {}
  for (const name of keptHeaders) {
    const value = response.headers[name]
    if (value !== undefined) headers[name] = value
  }
  if (body._tag === "Empty") return { status: response.status, headers, body: new Uint8Array() }
  headers["content-type"] = body.contentType
  return { status: response.status, headers, body: body.body }
}

const replayOf = (answer: StoredAnswer) => {
  const { "content-type": contentType, ...headers } = answer.headers
  const replayed = { ...headers, [idempotentReplayedHeader]: "true" }
  return answer.body.length === 0 && contentType === undefined
    ? HttpServerResponse.empty({ status: answer.status, headers: replayed })
    : HttpServerResponse.uint8Array(answer.body, {
      status: answer.status,
      headers: replayed,
      ...(contentType === undefined ? {} : { contentType })
    })
}

const refusal = (error: IdempotencyError) =>
  Effect.flatMap(requestPath, (instance) =>
    error._tag === "IdempotencyKeyReused"
      ? Effect.fail(new UnprocessableContent({ detail: error.message, instance }))
      : respondWithHeaders(new Conflict({ detail: error.message, instance }), {
        "retry-after": String(retryWhileRunningSeconds)
      }))

/** Whether a keyed request's failure is the key's refusal (rather than the request's own failure). */
const isIdempotencyError = (error: unknown): error is IdempotencyError =>
  typeof error === "object" && error !== null && "_tag" in error &&
  (error._tag === "IdempotencyKeyReused" || error._tag === "IdempotencyKeyInUse")

/**
 * Core's IdempotentRequests at the REST edge (see the contract's `Idempotency`). The request is
 * served inside `IdempotentRequests.serve`: the key is claimed, the request decoded and handled,
 * and a success's answer kept, all in one transaction, which the repositories the handler calls
 * join; so the key's record commits with the write or not at all, and a repeat after a lost
 * answer finds the answer, never a second write (docs/DECISIONS.md, "Idempotency keys commit with
 * the write"). A repeat while the first still runs (its transaction holds the key) is told to
 * retry later (409 with `Retry-After`).
 *
 * A failure rolled everything back: its answer, as the API renders it just before it is sent, is
 * kept afterwards when a repeat would deserve the same (a 4xx), under a claim of its own; a 5xx
 * (a commit whose outcome is unknown included) keeps nothing, so that a repeat is served anew, or
 * finds the answer that did commit. A request holding a key is served to its end even if its client
 * goes away (it is not interrupted).
 */
export const IdempotencyLive = Layer.effect(
  Idempotency,
  Effect.gen(function*() {
    const requests = yield* IdempotentRequests
    // Losing a failure's answer costs only its replay: a repeat is served anew, and wrote nothing.
    const keepFailure = (keyed: KeyedRequest, response: HttpServerResponse.HttpServerResponse) => {
      const answer = storedAnswerOf(response)
      if (answer === undefined || !isReplayable(answer.status)) return Effect.void
      return requests.begin(keyed).pipe(
        Effect.flatMap((begun) => begun._tag === "Fresh" ? requests.finish(keyed, begun.attempt, answer) : Effect.void),
        // Another request took the key meanwhile: its answer is the one kept.
        Effect.catchIf(isIdempotencyError, () => Effect.void),
        Effect.catchCause((cause) => Effect.logWarning("Could not keep the answer of an idempotent request", cause)),
        Effect.uninterruptible
      )
    }

    const serveWithKey = Effect.fnUntraced(function*<E, R>(
      request: HttpServerRequest.HttpServerRequest,
      key: string,
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) {
      if (!isIdempotencyKey(key)) {
        const message = "Expected 1 to 255 visible ASCII characters"
        return yield* Effect.fail(
          new InvalidRequest({
            detail: `Idempotency-Key: ${message}`,
            instance: yield* requestPath,
            errors: [{ field: "Idempotency-Key", message }]
          })
        )
      }
      const actor = yield* CurrentActor
      // Read once: the payload's decoder reads the same buffer afterwards (a body over the limit is
      // a defect here as there, which BodyLimit answers).
      const body = mayCarryBody(request) ? yield* Effect.orDie(request.arrayBuffer) : new ArrayBuffer(0)
      const keyed: KeyedRequest = { caller: actor.userId, key, fingerprint: fingerprintOf(request, body) }
      const served = yield* Effect.exit(Effect.uninterruptible(requests.serve(keyed, httpEffect, storedAnswerOf)))
      if (Exit.isSuccess(served)) {
        return served.value._tag === "Replay" ? replayOf(served.value.answer) : served.value.value
      }
      const refused = served.cause.reasons.find(Cause.isFailReason)
      if (refused !== undefined && isIdempotencyError(refused.error)) return yield* refusal(refused.error)
      // Rendered by the API after this middleware: kept, when it is worth it, as it is about to be sent.
      yield* HttpEffect.appendPreResponseHandler((_, response) => Effect.as(keepFailure(keyed, response), response))
      return yield* (served as Exit.Exit<never, E>)
    })

    // A request without a key (most) passes straight through.
    return Idempotency.of((httpEffect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const key = request.headers[idempotencyKeyHeader]
        return key === undefined ? httpEffect : serveWithKey(request, key, httpEffect)
      })
    )
  })
)
