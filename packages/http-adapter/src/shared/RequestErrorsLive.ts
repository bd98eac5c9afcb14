import { Effect, SchemaIssue } from "effect"
import { HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "@club/contract/rest"
import { RequestErrors } from "@club/contract/rest"
import { answerBadInput } from "./badInput.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const fieldOf = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined, kind: string) =>
  path === undefined || path.length === 0
    ? kind === "Payload" ? "body" : kind.toLowerCase()
    : path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/** A nullable optional field lists `null` twice in its expected union (`string | null | null`). */
const withoutRepeatedAlternatives = (message: string) =>
  message.replace(/^Expected (.+)$/u, (_, union: string) => `Expected ${[...new Set(union.split(" | "))].join(" | ")}`)

/** Each issue as `{field, message}`, the field named by its path in the body, path or query. */
const issuesOf = (error: HttpApiError.HttpApiSchemaError) =>
  formatter(error.cause.issue).issues.map((issue) => ({
    field: fieldOf(issue.path, error.kind),
    message: withoutRepeatedAlternatives(issue.message)
  }))

/**
 * Request decoding failures in the shape the endpoint declares (`InputFailure`): a 400 problem
 * naming each field by default, or the seed's pinned body for the endpoints that have one.
 */
export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(
  RequestErrors,
  (error, { endpoint }) =>
    Effect.gen(function*() {
      if (error.kind === "Body" || error.kind === "ResponseHeaders") {
        // The server failed to encode its own answer: a defect, not the caller's fault.
        return yield* Effect.die(error)
      }
      const issues = issuesOf(error)
      const detail = issues.map(({ field, message }) => `${field}: ${message}`).join("; ")
      return yield* answerBadInput(
        endpoint,
        detail,
        (instance) => new InvalidRequest({ detail, instance, errors: issues })
      )
    })
)
