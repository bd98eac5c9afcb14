import { Authentication, ClubApi } from "@club/contract/rest"
import { Cause, Effect, Exit, type Schema } from "effect"
import { HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { HttpApi, HttpApiClient } from "effect/http-api"
import type { RawReply } from "../support/rawHttp.ts"

/** How an answer relates to what the contract declares for its endpoint. */
export type Outcome =
  | { readonly _tag: "Accepted" }
  /** One of the endpoint's declared errors, decoded with its schema. */
  | { readonly _tag: "Refused"; readonly error: string }
  /** A status or a body the contract does not declare for the endpoint. */
  | { readonly _tag: "Undeclared"; readonly reason: string }

/** One endpoint of ClubApi, as the fuzzer needs it: where it is, what it takes, and how its answers decode. */
export interface ContractEndpoint {
  /** `group.endpoint`, e.g. `sessions.create`. */
  readonly id: string
  readonly method: string
  /** With `:name` placeholders, e.g. `/session/update/:id`. */
  readonly path: string
  readonly paramNames: ReadonlyArray<string>
  readonly params: Schema.Top | undefined
  readonly payload: Schema.Top | undefined
  readonly authenticated: boolean
  /** Decodes an answer with the endpoint's own success and error schemas, as the contract's client does. */
  readonly decode: (reply: RawReply, path: string) => Promise<Outcome>
}

const flatHeaders = (headers: RawReply["headers"]): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]]
    )
  )

const describeFailure = (cause: Cause.Cause<unknown>): Outcome => {
  const error = Cause.findErrorOption(cause)
  if (error._tag === "None") return { _tag: "Undeclared", reason: Cause.pretty(cause).slice(0, 500) }
  const value = error.value
  if (HttpClientError.isHttpClientError(value)) return { _tag: "Undeclared", reason: String(value).slice(0, 500) }
  if (typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "SchemaError") {
    return { _tag: "Undeclared", reason: String(value).slice(0, 500) }
  }
  return { _tag: "Refused", error: String((value as { _tag?: unknown })?._tag ?? value) }
}

const makeDecoder = (group: string, endpoint: string, method: string) => {
  const decodeResponse = HttpApiClient.decodeResponse(ClubApi, { group, endpoint } as never) as unknown as (
    response: HttpClientResponse.HttpClientResponse
  ) => Effect.Effect<unknown, unknown>
  return async (reply: RawReply, path: string): Promise<Outcome> => {
    const empty = reply.text === "" || reply.status === 204 || reply.status === 304
    const web = new Response(empty ? null : reply.text, { status: reply.status, headers: flatHeaders(reply.headers) })
    const request = HttpClientRequest.make(method as "GET")(`http://server${path}`)
    const exit = await Effect.runPromise(Effect.exit(decodeResponse(HttpClientResponse.fromWeb(request, web))))
    return Exit.isSuccess(exit) ? { _tag: "Accepted" } : describeFailure(exit.cause)
  }
}

const collect = (): ReadonlyArray<ContractEndpoint> => {
  const endpoints: Array<ContractEndpoint> = []
  HttpApi.reflect(ClubApi, {
    onGroup() {},
    onEndpoint({ endpoint, group, middleware }) {
      endpoints.push({
        id: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method,
        path: endpoint.path,
        paramNames: [...endpoint.path.matchAll(/:(\w+)/gu)].map((match) => match[1]!),
        params: endpoint.params,
        payload: [...endpoint.payload.values()][0]?.schemas[0],
        authenticated: middleware.has(Authentication as never),
        decode: makeDecoder(group.identifier, endpoint.identifier, endpoint.method)
      })
    }
  })
  return endpoints
}

/** Every endpoint of the REST contract. */
export const contractEndpoints: ReadonlyArray<ContractEndpoint> = collect()
