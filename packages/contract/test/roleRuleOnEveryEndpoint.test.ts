import { Operations } from "@club/core"
import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { ClubApi } from "../src/rest/Api.ts"
import { Authentication } from "../src/rest/shared/Authentication.ts"
import { RequiredOperation } from "../src/rest/shared/RequiredOperation.ts"

/**
 * The endpoints anyone may call, without a token: the probes and the login itself. An endpoint
 * is public only by being named here (docs/DECISIONS.md, "Every endpoint states its role rule").
 */
const publicEndpoints: ReadonlySet<string> = new Set([
  "health.live",
  "health.ready",
  "auth.login",
  // The feed token in the path stands for its user (CalendarFeedService applies its role rules).
  "feeds.athlete",
  "feeds.coach",
  "feeds.group",
  "feeds.guardian",
  // One-click unsubscribe (RFC 8058): the signed token stands for one user and one kind of notice.
  "unsubscribe.confirm",
  "unsubscribe.unsubscribe"
])

interface ContractEndpoint {
  readonly name: string
  readonly route: string
  /** What the role gate (`auth/roleGate.ts`) reads: the endpoint's own annotation. */
  readonly operation: string | undefined
  readonly authenticated: boolean
}

const contractEndpoints = (): ReadonlyArray<ContractEndpoint> => {
  const endpoints: Array<ContractEndpoint> = []
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, middleware }) =>
      endpoints.push({
        name: `${group.identifier}.${endpoint.identifier}`,
        route: `${endpoint.method} ${endpoint.path}`,
        operation: Context.get(endpoint.annotations, RequiredOperation),
        authenticated: middleware.has(Authentication as never)
      })
  })
  return endpoints
}

/**
 * The role gate (http-adapter's `auth/roleGate.ts`) checks the operation an endpoint is annotated with,
 * and only behind `Authentication`: an endpoint added without either would silently let every
 * caller through to its handler. This test fails for such an endpoint, whichever group it is in.
 */
describe("Every endpoint of the REST contract", () => {
  const endpoints = contractEndpoints()

  it("is found by reflection (the contract has endpoints to check)", () => {
    expect(endpoints.length).toBeGreaterThan(publicEndpoints.size)
  })

  it.each(
    endpoints.filter((endpoint) => !publicEndpoints.has(endpoint.name)).map((e) => [e.name, e.route, e] as const)
  )(
    "%s (%s) requires a token and names the operation of core's role table it performs",
    (_name, _route, endpoint) => {
      expect(endpoint.authenticated, "behind the Authentication middleware").toBe(true)
      expect(Operations, "annotated with RequiredOperation (the `operation(...)` helper's third argument)").toContain(
        endpoint.operation
      )
    }
  )

  it.each([...publicEndpoints])("%s, public by the list above, exists and needs no token", (name) => {
    const endpoint = endpoints.find((candidate) => candidate.name === name)
    expect(endpoint, `${name} is in the contract`).toBeDefined()
    expect(endpoint!.authenticated).toBe(false)
    expect(endpoint!.operation).toBeUndefined()
  })
})
