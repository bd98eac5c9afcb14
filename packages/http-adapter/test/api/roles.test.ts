import { admitsGuardians, coachOwnershipOf, RoleTable, rolesAllowed } from "@club/core"
import { type GuardedEndpoint, roleRules } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"
import { contractEndpoints } from "../support/contractEndpoints.ts"

/** The endpoints the contract guards, each with the roles and the owner rule of core's role table. */
const guarded = contractEndpoints().flatMap(({ method, operation, path }): Array<GuardedEndpoint> =>
  operation === undefined ? [] : [{
    method,
    path: path.replace(/:(\w+)/gu, "{$1}"),
    operation,
    allowed: rolesAllowed(operation),
    owner: (RoleTable[operation] as { readonly owner?: "athlete" | "user" }).owner,
    coachOwns: coachOwnershipOf(operation),
    guardian: admitsGuardians(operation)
  }]
)

const club = clubForFile()

describe("Roles, in process", () => {
  roleRules(club, guarded)
})
