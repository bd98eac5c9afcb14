import { AuditActor, CurrentActor, Unauthenticated } from "@club/core"
import type { HandlerContext } from "@connectrpc/connect"
import { Effect } from "effect"
import { actorKey } from "./actorKey.ts"

/**
 * Runs a use-case as the caller the auth interceptor authenticated. Without one (routes mounted
 * without the interceptor) the call is refused rather than run anonymously.
 */
export const asCaller =
  (context: HandlerContext) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Unauthenticated, Exclude<R, CurrentActor>> => {
    const actor = context.values.get(actorKey)
    return actor === undefined
      ? Effect.fail(new Unauthenticated({ reason: "missing" }))
      : effect.pipe(
        Effect.provideService(CurrentActor, actor),
        Effect.provideService(AuditActor, {
          userId: actor.userId,
          role: actor.role,
          requestId: context.requestHeader.get("x-request-id")
        })
      )
  }
