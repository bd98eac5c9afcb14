import { Effect } from "effect"
import { HttpServerRespondable, HttpServerResponse } from "effect/http"

/** A problem rendered as its response, with extra headers (`WWW-Authenticate`, `Retry-After`). */
export const respondWithHeaders = (problem: HttpServerRespondable.Respondable, headers: Record<string, string>) =>
  Effect.map(HttpServerRespondable.toResponse(problem), HttpServerResponse.setHeaders(headers))
