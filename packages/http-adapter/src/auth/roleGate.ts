import {
  type Actor,
  admitsGuardians,
  type AthleteId,
  CurrentActor,
  type GuardianService,
  isAllowed,
  NotPermitted
} from "@club/core"
import { Context, Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Forbidden } from "@club/contract/rest"
import { RequiredOperation } from "@club/contract/rest"

/**
 * Core's role check, made before the request is decoded: a caller whose role may not perform the
 * endpoint's operation gets its 403 whatever it sent, never the endpoint's answer to bad input
 * (an activity's 500, an athlete update's 204). The use-cases still check it themselves.
 * The refusal, or undefined when the caller may go on; read from the request's context at once,
 * as every authenticated request passes here. A rule that admits the athlete's guardians
 * (`attendance.reply`) cannot refuse on the role alone, as any user may be one: a caller the role
 * refuses is let on when it guards the path's athlete (one read of the athlete's guardians, made
 * only for such callers).
 */
export const roleRefusal = (
  endpoint: HttpApiEndpoint.Top,
  actor: Actor,
  context: Context.Context<HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>,
  guardians: GuardianService["Service"]
): Effect.Effect<Forbidden | undefined> => {
  const operation = Context.get(endpoint.annotations, RequiredOperation)
  if (operation === undefined) return Effect.succeed(undefined)
  // The path's id names the record of the operation's owner rule (athlete for athlete.update, user for user.read).
  const id = Number(Context.get(context, HttpRouter.RouteContext).params["id"])
  if (isAllowed(operation, actor, { athleteId: id, userId: id })) return Effect.succeed(undefined)
  const request = Context.get(context, HttpServerRequest.HttpServerRequest)
  const refusal = new Forbidden({
    detail: new NotPermitted({ operation }).message,
    instance: request.url.split("?")[0]!
  })
  if (!admitsGuardians(operation) || !Number.isSafeInteger(id) || id < 1) return Effect.succeed(refusal)
  return guardians.callerGuards(id as AthleteId).pipe(
    Effect.provideService(CurrentActor, actor),
    Effect.map((guards) => guards ? undefined : refusal)
  )
}
