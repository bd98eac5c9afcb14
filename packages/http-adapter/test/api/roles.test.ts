import { type Operation, Roles, RoleTable, rolesAllowed } from "@club/core"
import { describe, it } from "vitest"
import { clubForFile, type Role } from "../support/club.ts"
import { contractEndpoints, pathFor } from "../support/contractEndpoints.ts"
import { expectNotRefused, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"

/** An id no record has: the owner rules grant nothing on it, so only the role decides. */
const missingId = 987_654_321

/**
 * The role rules, generated from the contract's endpoints and core's role table: for every
 * endpoint that performs an operation, every role the table does not allow gets 403 problem+json
 * whatever it sends (the request is not even decoded), every role it allows gets past the gate,
 * and a request without a valid token gets 401 with the Bearer challenge. A rule changed in the
 * table, or an endpoint added to the contract, changes these cases with it.
 */
const guarded = contractEndpoints().flatMap((endpoint) =>
  endpoint.operation === undefined ? [] : [{ ...endpoint, operation: endpoint.operation }]
)

const club = clubForFile()

const ownerOf = (operation: Operation) => (RoleTable[operation] as { readonly owner?: "athlete" | "user" }).owner

describe.each(guarded)("$method $path ($operation)", ({ method, operation, path }) => {
  const cases = Roles.map((role) => [role, rolesAllowed(operation).includes(role)] as const)

  it.each(cases)("%s: allowed %s", async (role, allowed) => {
    const reply = await club().as(role).send(method, pathFor(path, missingId))
    if (allowed) expectNotRefused(reply)
    else expectProblem(reply, 403, `Your role may not ${operation}`)
  })

  it("without a token: 401, Bearer challenge", async () => {
    expectUnauthenticated(await club().anonymous.send(method, pathFor(path, missingId)), /^Bearer$/u)
  })

  it("with a token the server never issued: 401, invalid_token challenge", async () => {
    expectUnauthenticated(
      await club().withToken("not-a-token").send(method, pathFor(path, missingId)),
      /^Bearer error="invalid_token"$/u
    )
  })
})

/** The owner rules: a caller the roles alone refuse passes for its own record. */
describe.each(guarded.filter((endpoint) => ownerOf(endpoint.operation) !== undefined))(
  "$method $path ($operation), on the caller's own record",
  ({ method, operation, path }) => {
    const owner = ownerOf(operation)!
    const refusedRoles: ReadonlyArray<Role> = Roles.filter((role) => !rolesAllowed(operation).includes(role))
    const owners = refusedRoles.filter((role) => owner === "user" || role === "ATHLETE")

    it.each(owners)("%s, owner of the record: not refused", async (role) => {
      const id = owner === "user" ? club().userId[role] : club().athleteId
      expectNotRefused(await club().as(role).send(method, pathFor(path, id)))
    })
  }
)
