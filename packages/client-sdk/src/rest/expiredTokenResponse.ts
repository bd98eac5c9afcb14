import { HttpClientResponse } from "effect/http"
import type { HttpClientRequest } from "effect/http"
import { TOKEN_EXPIRED_MESSAGE } from "../shared/AccessToken.ts"

/**
 * The 401 problem the server would answer for an expired token. Answering it locally saves the
 * round trip, and the typed client decodes it into the contract's `Unauthorized` like any other.
 */
export const expiredTokenResponse = (request: HttpClientRequest.HttpClientRequest) =>
  HttpClientResponse.fromWeb(
    request,
    new Response(
      JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401, detail: TOKEN_EXPIRED_MESSAGE }),
      {
        status: 401,
        headers: { "content-type": "application/problem+json", "www-authenticate": "Bearer error=\"invalid_token\"" }
      }
    )
  )
