import { ClubApi, RequiredOperation } from "@club/contract/rest"
import { admitsGuardians, coachOwnershipOf, RoleTable, rolesAllowed } from "@club/core"
import { type GuardedEndpoint, roleRules } from "@club/test-support/rest"
import { Context } from "effect"
import { onEveryDatabase } from "./support/club.ts"

/**
 * Every endpoint of the contract that performs an operation of core's role table, read from the
 * contract's `RequiredOperation` annotations, with the roles `rolesAllowed` gives it. The suite's
 * OpenAPI case checks that every endpoint the server documents but login and the health probes is
 * among them, so an endpoint that lost its annotation (and with it the role gate) fails it.
 */
const endpoints: ReadonlyArray<GuardedEndpoint> = Object.values(ClubApi.groups).flatMap((group) =>
  Object.values(group.endpoints).flatMap((target): Array<GuardedEndpoint> => {
    const operation = Context.get(target.annotations, RequiredOperation)
    if (operation === undefined) return []
    return [{
      method: target.method,
      path: target.path.replace(/:(\w+)/gu, "{$1}"),
      operation,
      allowed: rolesAllowed(operation),
      owner: (RoleTable[operation] as { readonly owner?: "athlete" | "user" }).owner,
      coachOwns: coachOwnershipOf(operation),
      guardian: admitsGuardians(operation)
    }]
  })
)

await onEveryDatabase("Roles", (club) => roleRules(club, endpoints))
