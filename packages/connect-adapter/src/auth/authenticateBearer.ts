import { AuthService } from "@club/core"
import { Effect } from "effect"
import { bearerToken } from "./bearerToken.ts"

/** The caller of a request with this `Authorization` header, as REST authenticates it (any role). */
export const authenticateBearer = (authorization: string | null) =>
  Effect.flatMap(Effect.service(AuthService), (auth) => auth.authenticate(bearerToken(authorization)))
