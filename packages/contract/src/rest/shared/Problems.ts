import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { withoutStackTrace } from "@club/core"
import { Problem } from "./Problem.ts"

/**
 * RFC 9457 problems (`application/problem+json`) for every failure the seed does not pin to
 * another body. `detail` says what was wrong; `instance` is the request path.
 */
const Issue = Schema.Struct({
  field: Schema.String.annotate({
    description: "The field, parameter or header, by name (`name`, `athleteIds`, `id`, `body`)."
  }),
  message: Schema.String
}).annotate({
  identifier: "InputIssue",
  description: "What was wrong with one field of the request.",
  examples: [{ field: "name", message: "Expected a string, got 5" }]
})

/**
 * Members every problem may carry besides RFC 9457's: `requestId`, the id of the request it
 * answers (also its `X-Request-Id`), which the server's log lines of that request carry. The
 * server adds it to every problem it sends; declared here so that clients keep it.
 */
const extensions = {
  requestId: Schema.optionalKey(
    Schema.String.annotate({
      description: "The request's id, also its `X-Request-Id`, as the server's log lines name it."
    })
  )
}

export class InvalidRequest extends withoutStackTrace(
  Problem<InvalidRequest>()("InvalidRequest", {
    type: "about:blank",
    status: 400,
    title: "Bad Request",
    description:
      "Bad input: a body, parameter or header that does not decode, or ids that name no record. `detail` names each field, `errors` lists them."
  }, { errors: Schema.optionalKey(Schema.Array(Issue)), ...extensions })
) {}

export class Unauthorized extends withoutStackTrace(
  Problem<Unauthorized>()("Unauthorized", {
    type: "about:blank",
    status: 401,
    title: "Unauthorized",
    description:
      "No bearer token, or one that is malformed, expired, forged or no longer valid (its user deleted, or its role or password changed); on login, a wrong name or password. A refused token is answered with `WWW-Authenticate: Bearer`."
  }, extensions)
) {}

export class Forbidden extends withoutStackTrace(
  Problem<Forbidden>()("Forbidden", {
    type: "about:blank",
    status: 403,
    title: "Forbidden",
    description: "The caller's role may not perform this operation."
  }, extensions)
) {}

export class NotFound extends withoutStackTrace(
  Problem<NotFound>()("NotFound", {
    type: "about:blank",
    status: 404,
    title: "Not Found",
    description: "No record has this id."
  }, extensions)
) {}

export class Conflict extends withoutStackTrace(
  Problem<Conflict>()("Conflict", {
    type: "about:blank",
    status: 409,
    title: "Conflict",
    description:
      "The request conflicts with the stored records (an id or name already taken, a record already linked, a coach who still owns sessions, the last ADMIN user), or a request with the same idempotency key is still being served (with `Retry-After`)."
  }, extensions)
) {}

export class ContentTooLarge extends withoutStackTrace(
  Problem<ContentTooLarge>()("ContentTooLarge", {
    type: "about:blank",
    status: 413,
    title: "Content Too Large",
    description: "The request body is over 1 MiB."
  }, extensions)
) {}

export class UnsupportedMediaType extends withoutStackTrace(
  Problem<UnsupportedMediaType>()("UnsupportedMediaType", {
    type: "about:blank",
    status: 415,
    title: "Unsupported Media Type",
    description: "The request body is not `application/json`."
  }, extensions)
) {}

export class TooManyRequests extends withoutStackTrace(
  Problem<TooManyRequests>()("TooManyRequests", {
    type: "about:blank",
    status: 429,
    title: "Too Many Requests",
    description:
      "Too many failed logins for this name from this address, or from this address: retry after `Retry-After` seconds."
  }, { retryAfter: Schema.Int, ...extensions })
) {}

/** The 429 problem with its `Retry-After` header (seconds), which clients and proxies read rather than the body. */
const RetryAfterSeconds = Schema.String.annotate({
  description: "The seconds to wait before the next attempt."
}).check(Schema.isPattern(/^[0-9]+$/u)).pipe(Schema.decodeTo(Schema.Number, SchemaTransformation.numberFromString))

export const TooManyRequestsWithRetryAfter = TooManyRequests.pipe(
  HttpApiSchema.encodeToWithHeaders({
    body: TooManyRequests,
    headers: { "retry-after": RetryAfterSeconds }
  }, {
    decode: ({ body }) => body,
    encode: (problem) => ({ body: problem, headers: { "retry-after": problem.retryAfter } })
  })
)

export class Unavailable extends withoutStackTrace(
  Problem<Unavailable>()("Unavailable", {
    type: "about:blank",
    status: 503,
    title: "Service Unavailable",
    description: "The database is unreachable; retry later."
  }, extensions)
) {}

/**
 * A request whose idempotency key was already used for another request (draft-ietf-httpapi-
 * idempotency-key-header: 422); the key's first request keeps its answer.
 */
export class UnprocessableContent extends withoutStackTrace(
  Problem<UnprocessableContent>()("UnprocessableContent", {
    type: "about:blank",
    status: 422,
    title: "Unprocessable Content",
    description: "The idempotency key was already used for another request."
  }, extensions)
) {}

/** A known path asked with a method it does not take; the answer's `Allow` header lists those it takes. */
export class MethodNotAllowed extends withoutStackTrace(
  Problem<MethodNotAllowed>()("MethodNotAllowed", {
    type: "about:blank",
    status: 405,
    title: "Method Not Allowed",
    description: "The path is served under other methods, listed in `Allow`."
  }, extensions)
) {}
