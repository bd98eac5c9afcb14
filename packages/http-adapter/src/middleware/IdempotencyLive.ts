import {
  CurrentActor,
  IdempotentRequests,
  isIdempotencyKey,
  type IdempotencyError,
  type KeyedRequest,
  type StoredAnswer
} from "@club/core"
import { Effect, Exit, Layer } from "effect"
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
import { requestPath } from "../handlers/problems.ts"
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

/**
 * Core's IdempotentRequests at the REST edge (see the contract's `Idempotency`). The key is claimed
 * before the request is decoded; the request is then served as usual, and its answer kept: a
 * success as the handler built it, a failure as the API renders it, just before it is sent.
 *
 * A request holding a key is served to its end even if its client goes away (it is not
 * interrupted), and a success is kept before its answer is sent: a client that lost the answer
 * and sends the request again gets it, rather than a second write. A failure wrote nothing, so if
 * its answer cannot be kept the key is freed, or taken over once abandoned.
 */
export const IdempotencyLive = Layer.effect(
  Idempotency,
  Effect.gen(function*() {
    const requests = yield* IdempotentRequests
    const finish = (keyed: KeyedRequest, attempt: string, response: HttpServerResponse.HttpServerResponse) =>
      requests.finish(keyed, attempt, storedAnswerOf(response)).pipe(
        // Losing the answer costs only the replay: the key is taken over once abandoned.
        Effect.catchCause((cause) => Effect.logWarning("Could not keep the answer of an idempotent request", cause)),
        Effect.uninterruptible
      )

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
      const begun = yield* Effect.result(requests.begin(keyed))
      if (begun._tag === "Failure") return yield* refusal(begun.failure)
      if (begun.success._tag === "Replay") return replayOf(begun.success.answer)
      const { attempt } = begun.success
      return yield* Effect.uninterruptible(Effect.gen(function*() {
        const served = yield* Effect.exit(httpEffect)
        if (Exit.isSuccess(served)) {
          yield* finish(keyed, attempt, served.value)
          return served.value
        }
        // Rendered by the API after this middleware: kept as it is about to be sent.
        yield* HttpEffect.appendPreResponseHandler((_, response) =>
          Effect.as(finish(keyed, attempt, response), response)
        )
        return yield* served
      }))
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
