import { AuditActor, AuthService, CurrentActor, GuardianService, type Unauthenticated } from "@club/core"
import { Context, Effect, Layer, Redacted } from "effect"
import { type HttpRouter, HttpServerRequest, HttpServerRespondable } from "effect/http"
import { Authentication } from "@club/contract/rest"
import { Unauthorized } from "@club/contract/rest"
import { respondWithHeaders } from "../shared/respond.ts"
import { roleRefusal } from "./roleGate.ts"

/** A refused token: a 401 problem with `WWW-Authenticate: Bearer`. */
const refuseToken = (error: Unauthenticated) =>
  Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
    respondWithHeaders(
      new Unauthorized({ detail: error.message, instance: request.url.split("?")[0]! }),
      { "www-authenticate": error.reason === "missing" ? "Bearer" : "Bearer error=\"invalid_token\"" }
    ))

/**
 * Checks the bearer token with core's AuthService; a refusal is a 401 problem with `WWW-Authenticate: Bearer`.
 * A caller whose role may not perform the endpoint's operation is refused (403) before the request is decoded
 * (for a rule that admits guardians, unless it guards the path's athlete).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* AuthService
    const guardians = yield* GuardianService
    return Authentication.of({
      bearer: (httpEffect, { credential, endpoint }) =>
        Effect.matchEffect(auth.authenticate(Redacted.value(credential)), {
          onFailure: refuseToken,
          onSuccess: (actor) =>
            Effect.contextWith(
              (context: Context.Context<HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>) =>
                Effect.flatMap(roleRefusal(endpoint, actor, context, guardians), (refusal) =>
                  refusal === undefined
                    ? httpEffect.pipe(
                      Effect.provideService(CurrentActor, actor),
                      // Every write the request makes names the caller and the request in its audit entry.
                      Effect.provideService(AuditActor, {
                        userId: actor.userId,
                        role: actor.role,
                        requestId: Context.get(context, HttpServerRequest.HttpServerRequest).headers["x-request-id"] ??
                          null
                      })
                    )
                    : HttpServerRespondable.toResponse(refusal))
            )
        })
    })
  })
)
