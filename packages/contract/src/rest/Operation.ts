import { type Operation, RoleTable, rolesAllowed } from "@club/core"
import { Context } from "effect"
import { OpenApi } from "effect/http-api"
import { RequiredOperation } from "./RequiredOperation.ts"

/** Who may call an operation of core's role table, in words: the same table the server enforces. */
export const whoMayCall = (operation: Operation): string => {
  const roles = rolesAllowed(operation)
  const everyRole = roles.length === 3
  const listed = roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(", ")} or ${roles.at(-1)!}`
  const owner = (RoleTable[operation] as { readonly owner?: "athlete" | "user" }).owner
  const byOwner = owner === "athlete"
    ? ", or the ATHLETE user linked to the athlete `{id}`"
    : owner === "user"
    ? ", or the user `{id}` itself"
    : ""
  return everyRole
    ? "**Who may call it:** any authenticated user (ADMIN, COACH or ATHLETE). Without a valid token: 401."
    : `**Who may call it:** ${listed}${byOwner}. Any other caller: 403, before the request is read; without a valid token: 401.`
}

/**
 * An endpoint's documentation and its role rule, annotated together (`.annotateMerge(...)`): the
 * summary and description of its OpenAPI operation, the description ending with who may call it,
 * and the operation of core's role table that `Authentication` checks (`RequiredOperation`).
 * Without an operation, the endpoint is public.
 */
export const operation = (
  summary: string,
  description: string,
  required?: Operation
): Context.Context<never> => {
  const rule = required === undefined ? "**Who may call it:** anyone; no token is needed." : whoMayCall(required)
  const documentation = OpenApi.annotations({ summary, description: `${description}\n\n${rule}` })
  return required === undefined ? documentation : Context.add(documentation, RequiredOperation, required)
}
