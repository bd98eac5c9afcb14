import { Code, ConnectError, type Interceptor } from "@connectrpc/connect"
import { type AccessToken, isExpired, TOKEN_EXPIRED_MESSAGE } from "../shared/AccessToken.ts"

/** Sends the bearer token with every call; an expired token fails as the server would, without a round trip. */
export const bearerInterceptor =
  (token: AccessToken, now: () => number = Date.now): Interceptor => (next) => (request) => {
    if (isExpired(token, now())) {
      return Promise.reject(new ConnectError(TOKEN_EXPIRED_MESSAGE, Code.Unauthenticated))
    }
    request.header.set("authorization", `Bearer ${token.value}`)
    return next(request)
  }
