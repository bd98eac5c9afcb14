import { HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "./Problems.ts"

/**
 * The router reads a path only up to its first `;` or `#`, as if the rest were a query, so that
 * `/session/7;x` would reach session 7. A path holding either as is (rather than `%3B`, `%23`) is
 * bad input: the endpoint's answer naming the parameter it is in (see `InputFailure`). Added to a
 * group before `Authentication`, so that it runs after the role check, as decoding does.
 */
export class PathDelimiters extends HttpApiMiddleware.Service<PathDelimiters>()("@club/http-adapter/PathDelimiters", {
  error: InvalidRequest
}) {}
