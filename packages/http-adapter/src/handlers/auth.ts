import { AuthService } from "@club/core"
import { Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "../contract/Api.ts"
import { problems } from "./problems.ts"
import { toUserDto } from "./toDto.ts"

/** The client's address, for counting failed logins per client. */
const clientAddress = Effect.map(
  Effect.service(HttpServerRequest.HttpServerRequest),
  (request) => Option.getOrNull(request.remoteAddress)
)

export const AuthHandlers = HttpApiBuilder.group(ClubApi, "auth", Effect.fn(function*(handlers) {
  const auth = yield* AuthService
  return handlers
    .handle("login", Effect.fn(function*({ payload }) {
      const address = yield* clientAddress
      const result = yield* auth.login({
        name: payload.name,
        password: Redacted.make(payload.password),
        clientAddress: address
      }).pipe(problems)
      return { token: result.token, tokenType: "Bearer" as const, expiresIn: result.expiresIn, user: toUserDto(result.user) }
    }))
    .handle("me", () => auth.me().pipe(Effect.map(toUserDto), problems))
}))
