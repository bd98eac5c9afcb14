import { AuthService } from "@club/core"
import { Effect, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { clientAddress } from "./clientAddress.ts"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

export const AuthHandlers = HttpApiBuilder.group(
  ServedApi,
  "auth",
  Effect.fn(function*(handlers) {
    const auth = yield* AuthService
    return handlers
      .handle(
        "login",
        Effect.fn(function*({ payload }) {
          const address = yield* clientAddress
          const result = yield* auth.login({
            name: payload.name,
            password: Redacted.make(payload.password),
            clientAddress: address
          }).pipe(problems)
          return {
            token: result.token,
            tokenType: "Bearer" as const,
            expiresIn: result.expiresIn,
            user: result.user
          }
        })
      )
      .handle("me", () => auth.me().pipe(problems))
  })
)
