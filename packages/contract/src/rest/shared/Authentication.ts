import { CurrentActor } from "@club/core"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Unauthorized } from "./Problems.ts"

/**
 * The bearer token `POST /auth/login` issues, as the OpenAPI document describes it. The scheme is
 * spelled `bearer`, as the OpenAPI specification's examples and the IANA registry do: HTTP auth
 * schemes compare case-insensitively (the server accepts any spelling), but the `/docs` page's client
 * recognises only the lower-case one and otherwise offers Basic credentials.
 */
const bearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(HttpApiSecurity.annotateMerge(OpenApi.annotations({
  format: "JWT",
  description:
    "`Authorization: Bearer <token>`, the token `POST /auth/login` answers (a signed JWT, valid `expiresIn` seconds). A token stops counting when its user is deleted or its role or password changes."
})))

/** `Authorization: Bearer <token>` on every endpoint but health, login and the docs; provides the actor. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentActor }>()(
  "@club/contract/Authentication",
  {
    security: { bearer },
    error: Unauthorized,
    requiredForClient: true
  }
) {}
