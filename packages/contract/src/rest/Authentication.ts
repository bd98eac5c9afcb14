import { CurrentActor } from "@club/core"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Unauthorized } from "./Problems.ts"

/** `Authorization: Bearer <token>` on every endpoint but health, login and the docs; provides the actor. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentActor }>()(
  "@club/contract/Authentication",
  {
    security: { bearer: HttpApiSecurity.bearer },
    error: Unauthorized,
    requiredForClient: true
  }
) {}
