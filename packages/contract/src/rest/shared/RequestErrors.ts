import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "./Problems.ts"

/**
 * How an endpoint answers a request it cannot decode. Most answer a 400 problem naming the
 * field; the seed pins other shapes for "any failure" of a few endpoints.
 */
export type InputFailureShape =
  | "problem"
  /** 500 `Error: <message>` (activity create, update, delete). */
  | "activityText"
  /** 204, empty (athlete update). */
  | "emptyNoContent"
  /** 400 plain text (session create). */
  | "badRequestText"

export const InputFailure = Context.Reference<InputFailureShape>("@club/contract/InputFailure", {
  defaultValue: () => "problem"
})

/** Renders request decoding failures in the shape the endpoint's `InputFailure` annotation names. */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("@club/contract/RequestErrors", {
  error: InvalidRequest
}) {}
