import { ClubApi, RequiredOperation } from "@club/contract/rest"
import type { Operation } from "@club/core"
import { Context } from "effect"
import { HttpApi } from "effect/http-api"

export interface ContractEndpoint {
  /** `group.endpoint`, as the OpenAPI operation id. */
  readonly name: string
  readonly method: string
  /** The router's template: `/session/:id`. */
  readonly path: string
  /** The operation of core's role table the endpoint performs; undefined for a public one. */
  readonly operation: Operation | undefined
  /** Whether it takes a request body. */
  readonly takesBody: boolean
}

/** Every endpoint of the REST contract, read from the contract itself. */
export const contractEndpoints = (): ReadonlyArray<ContractEndpoint> => {
  const endpoints: Array<ContractEndpoint> = []
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group }) =>
      endpoints.push({
        name: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method,
        path: endpoint.path,
        operation: Context.get(endpoint.annotations, RequiredOperation),
        takesBody: endpoint.payload.size > 0
      })
  })
  return endpoints
}
