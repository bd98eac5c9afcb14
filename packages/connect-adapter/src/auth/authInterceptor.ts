import type { AuthService } from "@club/core"
import type { Interceptor } from "@connectrpc/connect"
import { actorKey } from "./actorKey.ts"
import { authenticateBearer } from "./authenticateBearer.ts"
import { type EdgeRunner, rpcSpanKey } from "../shared/EdgeRunner.ts"

/**
 * Authenticates every call with the same bearer token as REST (any role) and hands the actor to
 * the handlers; a missing or invalid token answers `unauthenticated` before any handler runs.
 * With tracing on, the call's server span encloses both, and the handler's run is its child.
 */
export const makeAuthInterceptor = (run: EdgeRunner<AuthService>): Interceptor => (next) => (request) => {
  const call = { signal: request.signal, method: request.method, requestHeader: request.header }
  return run.serve(call, async (span) => {
    if (span !== undefined) request.contextValues.set(rpcSpanKey, span)
    const actor = await run(authenticateBearer(request.header.get("authorization")), { ...call, span })
    request.contextValues.set(actorKey, actor)
    return next(request)
  })
}
