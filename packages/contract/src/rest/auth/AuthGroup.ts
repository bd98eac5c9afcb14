import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { tag } from "../shared/endpointParts.ts"
import { LoginDto, LoginInput, MeDto } from "../shared/Dto.ts"
import { Forbidden, NotFound, TooManyRequestsWithRetryAfter, Unauthorized } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"

export class AuthGroup extends HttpApiGroup.make("auth").add(
  HttpApiEndpoint.get("me", "/auth/me", { success: MeDto, error: [NotFound, Forbidden] })
    .annotateMerge(
      operation(
        "The caller's user and rules",
        "The user the bearer token was issued to, the coach, athlete or admin record it is linked to, and the rules of its role: every operation it may call, with how far it reaches.",
        "auth.me"
      )
    )
).middleware(Authentication).add(
  HttpApiEndpoint.post("login", "/auth/login", {
    payload: LoginInput,
    success: LoginDto,
    error: [Unauthorized, TooManyRequestsWithRetryAfter]
  }).annotateMerge(operation(
    "Log in",
    "Exchanges a user's name and password for a bearer token. A wrong name or a wrong password get the same 401. Repeated failures for a name from one address, or from one address, make further attempts from there wait (429 with `Retry-After`); a user who knows the password is never locked out from elsewhere."
  ))
).middleware(RawInput).annotateMerge(
  tag("Authentication", "Log in for a bearer token, and read the user a token was issued to.")
) {}
