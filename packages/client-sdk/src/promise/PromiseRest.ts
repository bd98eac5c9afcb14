import type { ClubApi } from "@club/contract/rest"
import { Effect } from "effect"
import type { HttpApiClient, HttpApiEndpoint } from "effect/http-api"
import type { CallError } from "../shared/toClubApiError.ts"
import { checkRequest, takesRequest } from "../rest/checkRequest.ts"
import type { RestClient } from "../rest/RestClient.ts"
import type { CallOptions } from "../shared/ClientOptions.ts"
import { runCall } from "./runCall.ts"

type Groups = (typeof ClubApi)["groups"]

/** What a call of endpoint `E` takes (its path parameters and body), as the Effect face's decoded-only call does. */
type RequestOf<E extends HttpApiEndpoint.ConstraintRequest> = HttpApiEndpoint.ClientRequest<
  E["~Params"],
  E["~Query"],
  E["~Payload"],
  E["~Headers"],
  "decoded-only",
  never
>

/** What a call of endpoint `E` answers, decoded. */
type AnswerOf<E extends HttpApiEndpoint.ConstraintRequest> = Effect.Success<
  HttpApiClient.Client.MethodReturn<E, never, never, "decoded-only", never>
>

/** One REST call of the Promise face: the Effect face's request (when the endpoint takes one), then the call's options. */
export type PromiseCall<E extends HttpApiEndpoint.ConstraintRequest> = {} extends RequestOf<E>
  ? (options?: CallOptions) => Promise<AnswerOf<E>>
  : (request: RequestOf<E>, options?: CallOptions) => Promise<AnswerOf<E>>

/**
 * The REST groups of the contract with every call as a Promise: the same groups, the same names and
 * the same request shapes as the Effect face (`club.sessions.get({ params: { id } })`), so that code
 * moves between the two faces unchanged. The seed's unprefixed coach paths (`rootCoaches`) are the
 * same operations as `coaches`, and are left out.
 */
export type PromiseRestGroups = {
  readonly [G in Exclude<keyof Groups, "rootCoaches">]: {
    readonly [E in keyof Groups[G]["endpoints"]]: Groups[G]["endpoints"][E] extends
      infer Endpoint extends HttpApiEndpoint.ConstraintRequest ? PromiseCall<Endpoint>
      : never
  }
}

type AnyCall = (request?: unknown) => Effect.Effect<unknown, CallError>

/** Wraps every call of the Effect face's groups: its request checked against the contract first, then run as a Promise. */
export const promiseRestGroups = (rest: RestClient, defaultTimeoutMs: number | undefined): PromiseRestGroups => {
  const groups: Record<string, Record<string, unknown>> = {}
  for (const [group, calls] of Object.entries(rest as unknown as Record<string, Record<string, AnyCall>>)) {
    if (group === "rootCoaches") continue
    groups[group] = Object.fromEntries(
      Object.entries(calls).map(([endpoint, call]) => {
        const withRequest = takesRequest(group, endpoint)
        const promised = (...args: Array<unknown>) => {
          const [request, options] = withRequest ? args : [undefined, args[0]]
          return runCall(
            Effect.andThen(checkRequest(group, endpoint, request), call(request)),
            options as CallOptions | undefined,
            defaultTimeoutMs
          )
        }
        return [endpoint, promised]
      })
    )
  }
  return groups as unknown as PromiseRestGroups
}
