import { HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "./Problems.ts"

/**
 * What the request's decoders cannot see, checked on the raw request: a path holding `;` or `#` as
 * is (the router reads a path only up to either, as if the rest were a query, so that
 * `/session/7;x` would reach session 7), and a body that is not valid UTF-8 (the text decoder
 * would store U+FFFD in its place). Either is bad input: the endpoint's answer naming the parameter
 * or the body (see `InputFailure`). Added to a group before `Authentication`, so that it runs
 * after the role check, as decoding does.
 */
export class RawInput extends HttpApiMiddleware.Service<RawInput>()("@club/contract/RawInput", {
  error: InvalidRequest
}) {}
