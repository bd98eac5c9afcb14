import { AuthService } from "@club/core"
import type { Interceptor } from "@connectrpc/connect"
import { Effect } from "effect"
import { actorKey } from "./actorKey.ts"
import { bearerToken } from "./bearerToken.ts"
import type { EdgeRunner } from "./EdgeRunner.ts"

/**
 * Authenticates every call with the same bearer token as REST (any role) and hands the actor to
 * the handlers; a missing or invalid token answers `unauthenticated` before any handler runs.
 */
export const makeAuthInterceptor = (run: EdgeRunner<AuthService>): Interceptor => (next) => async (request) => {
  const token = bearerToken(request.header.get("authorization"))
  const actor = await run(Effect.flatMap(Effect.service(AuthService), (auth) => auth.authenticate(token)), request)
  request.contextValues.set(actorKey, actor)
  return next(request)
}
