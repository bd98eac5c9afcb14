import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { withoutStackTrace } from "@club/core"
import { Problem } from "./Problem.ts"

/**
 * RFC 9457 problems (`application/problem+json`) for every failure the seed does not pin to
 * another body. `detail` says what was wrong; `instance` is the request path.
 */
const Issue = Schema.Struct({ field: Schema.String, message: Schema.String })

/**
 * Members every problem may carry besides RFC 9457's: `requestId`, the id of the request it
 * answers (also its `X-Request-Id`), which the server's log lines of that request carry. The
 * server adds it to every problem it sends; declared here so that clients keep it.
 */
const extensions = { requestId: Schema.optionalKey(Schema.String) }

export class InvalidRequest extends withoutStackTrace(Problem<InvalidRequest>()("InvalidRequest", {
  type: "about:blank",
  status: 400,
  title: "Bad Request"
}, { errors: Schema.optionalKey(Schema.Array(Issue)), ...extensions })) {}

export class Unauthorized extends withoutStackTrace(Problem<Unauthorized>()("Unauthorized", {
  type: "about:blank",
  status: 401,
  title: "Unauthorized"
}, extensions)) {}

export class Forbidden extends withoutStackTrace(Problem<Forbidden>()("Forbidden", {
  type: "about:blank",
  status: 403,
  title: "Forbidden"
}, extensions)) {}

export class NotFound extends withoutStackTrace(Problem<NotFound>()("NotFound", {
  type: "about:blank",
  status: 404,
  title: "Not Found"
}, extensions)) {}

export class Conflict extends withoutStackTrace(Problem<Conflict>()("Conflict", {
  type: "about:blank",
  status: 409,
  title: "Conflict"
}, extensions)) {}

export class ContentTooLarge extends withoutStackTrace(Problem<ContentTooLarge>()("ContentTooLarge", {
  type: "about:blank",
  status: 413,
  title: "Content Too Large"
}, extensions)) {}

export class UnsupportedMediaType extends withoutStackTrace(Problem<UnsupportedMediaType>()("UnsupportedMediaType", {
  type: "about:blank",
  status: 415,
  title: "Unsupported Media Type"
}, extensions)) {}

export class TooManyRequests extends withoutStackTrace(Problem<TooManyRequests>()("TooManyRequests", {
  type: "about:blank",
  status: 429,
  title: "Too Many Requests"
}, { retryAfter: Schema.Int, ...extensions })) {}

/** The 429 problem with its `Retry-After` header (seconds), which clients and proxies read rather than the body. */
export const TooManyRequestsWithRetryAfter = TooManyRequests.pipe(
  HttpApiSchema.encodeToWithHeaders({
    body: TooManyRequests,
    headers: { "retry-after": Schema.NumberFromString }
  }, {
    decode: ({ body }) => body,
    encode: (problem) => ({ body: problem, headers: { "retry-after": problem.retryAfter } })
  })
)

export class Unavailable extends withoutStackTrace(Problem<Unavailable>()("Unavailable", {
  type: "about:blank",
  status: 503,
  title: "Service Unavailable"
}, extensions)) {}

/**
 * A request whose idempotency key was already used for another request (draft-ietf-httpapi-
 * idempotency-key-header: 422); the key's first request keeps its answer.
 */
export class UnprocessableContent extends withoutStackTrace(Problem<UnprocessableContent>()("UnprocessableContent", {
  type: "about:blank",
  status: 422,
  title: "Unprocessable Content"
}, extensions)) {}

/** A known path asked with a method it does not take; the answer's `Allow` header lists those it takes. */
export class MethodNotAllowed extends withoutStackTrace(Problem<MethodNotAllowed>()("MethodNotAllowed", {
  type: "about:blank",
  status: 405,
  title: "Method Not Allowed"
}, extensions)) {}
