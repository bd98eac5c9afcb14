import { Effect } from "effect"
import {
  FetchHttpClient,
  HttpClient,
  type HttpClientError,
  HttpClientRequest,
  type HttpClientResponse
} from "effect/http"
import { CallSettings } from "../shared/CallSettings.ts"
import { delayBeforeRetry, retryableStatuses, retryAfterMs, type RetryPolicy } from "../shared/retryDelay.ts"

const idempotentMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"])

/** The seed's reads made with POST. */
const readsSentAsPost: ReadonlySet<string> = new Set(["/athletes/all"])

/** The call may be sent again: an idempotent method, a read made with POST, or a write with an idempotency key. */
const repeatable = (request: HttpClientRequest.HttpClientRequest, call: CallSettings) =>
  idempotentMethods.has(request.method) ||
  (request.method === "POST" && readsSentAsPost.has(new URL(request.url).pathname)) ||
  call.repeatable ||
  call.idempotencyKey !== undefined

const remember = (call: CallSettings, response: HttpClientResponse.HttpClientResponse) => {
  call.seen.status = response.status
  call.seen.requestId = response.headers["x-request-id"]
  call.seen.retryAfterMs = retryAfterMs(response.headers["retry-after"], Date.now())
}

/**
 * Sends the request, and again while the answer says "not now" (no answer, 429, 502, 503, 504) and
 * the call may be repeated, waiting as `delayBeforeRetry` says; the last answer is the call's.
 */
const sendWithRetries = (
  send: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>,
  request: HttpClientRequest.HttpClientRequest,
  policy: RetryPolicy
) =>
  CallSettings.use((call) => {
    const mayRepeat = repeatable(request, call)
    const attempt = (
      n: number
    ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
      send.pipe(
        Effect.tap((response) => Effect.sync(() => remember(call, response))),
        Effect.matchEffect({
          onFailure: (error) => {
            const delay = mayRepeat && error.response === undefined ? delayBeforeRetry(policy, n, undefined) : undefined
            return delay === undefined ? Effect.fail(error) : Effect.andThen(Effect.sleep(delay), attempt(n + 1))
          },
          onSuccess: (response) => {
            const delay = mayRepeat && retryableStatuses.has(response.status)
              ? delayBeforeRetry(policy, n, call.seen.retryAfterMs)
              : undefined
            // The answer that is retried is discarded unread.
            return delay === undefined
              ? Effect.succeed(response)
              : Effect.andThen(Effect.ignore(response.arrayBuffer), Effect.andThen(Effect.sleep(delay), attempt(n + 1)))
          }
        })
      )
    return attempt(1)
  })

export interface CallClientSettings {
  readonly fetch: typeof globalThis.fetch
  readonly headers: Readonly<Record<string, string>>
  readonly policy: RetryPolicy
  readonly tracePropagation: boolean
}

/**
 * The HTTP client every REST call goes through: the client's headers and the call's (its
 * idempotency key included) on each request, retries as the policy says, and what the answer said
 * (its request id, status, `Retry-After`) kept for the call's error. The client's `fetch` and its
 * tracing choice are given to each request here, since Effect's fetch client reads them from the
 * calling fiber.
 */
export const callClient = (settings: CallClientSettings) => (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  client.pipe(
    HttpClient.mapRequestEffect((request) =>
      CallSettings.useSync((call) => {
        const withHeaders = HttpClientRequest.setHeaders(request, { ...settings.headers, ...call.headers })
        return call.idempotencyKey === undefined
          ? withHeaders
          : HttpClientRequest.setHeader(withHeaders, "idempotency-key", call.idempotencyKey)
      })
    ),
    HttpClient.transform((send, request) =>
      sendWithRetries(
        send.pipe(
          Effect.provideService(FetchHttpClient.Fetch, settings.fetch),
          Effect.provideService(HttpClient.TracerPropagationEnabled, settings.tracePropagation)
        ),
        request,
        settings.policy
      )
    )
  )
