import { AuthService, CurrentActor } from "@club/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest, HttpServerRespondable } from "effect/http"
import { Authentication } from "@club/contract/rest"
import { Unauthorized } from "@club/contract/rest"
import { respondWithHeaders } from "./respond.ts"
import { roleRefusal } from "./RoleGate.ts"

/**
 * Checks the bearer token with core's AuthService; a refusal is a 401 problem with `WWW-Authenticate: Bearer`.
 * A caller whose role may not perform the endpoint's operation is refused (403) before the request is decoded.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* AuthService
    return Authentication.of({
      bearer: (httpEffect, { credential, endpoint }) =>
        auth.authenticate(Redacted.value(credential)).pipe(
          Effect.matchEffect({
            onFailure: (error) =>
              Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
                respondWithHeaders(
                  new Unauthorized({ detail: error.message, instance: request.url.split("?")[0]! }),
                  { "www-authenticate": error.reason === "missing" ? "Bearer" : "Bearer error=\"invalid_token\"" }
                )),
            onSuccess: (actor) =>
              Effect.flatMap(
                roleRefusal(endpoint, actor),
                Option.match({
                  onNone: () => Effect.provideService(httpEffect, CurrentActor, actor),
                  onSome: HttpServerRespondable.toResponse
                })
              )
          })
        )
    })
  })
)
