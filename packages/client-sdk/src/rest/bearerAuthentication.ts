import { Authentication } from "@club/contract/rest"
import { Clock, Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { type AccessToken, isExpired } from "../shared/AccessToken.ts"
import { expiredTokenResponse } from "./expiredTokenResponse.ts"

/** The client side of the contract's `Authentication` middleware: the bearer token on every call. */
export const bearerAuthentication = (token: AccessToken) =>
  HttpApiMiddleware.layerClient(
    Authentication,
    ({ next, request }) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        isExpired(token, now)
          ? Effect.succeed(expiredTokenResponse(request))
          : next(HttpClientRequest.bearerToken(request, token.value)))
  )
