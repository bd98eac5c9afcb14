import {
  admitsGuardians,
  coachOwnershipOf,
  type CoachOwnership,
  handOverRoles,
  type Operation,
  RoleTable,
  rolesOf
} from "@club/core"
import { Context } from "effect"
import { OpenApi } from "effect/http-api"
import { RequiredOperation } from "./RequiredOperation.ts"

/** A list in words: `A`, `A or B`, `A, B or C`. */
const either = (items: ReadonlyArray<string>) =>
  items.length === 1 ? items[0]! : `${items.slice(0, -1).join(", ")} or ${items.at(-1)!}`

/** What a coach must coach, in words, for each ownership rule of the table (`coachOwns`). */
const coachedRecord: Record<CoachOwnership, string> = {
  sessionCoach: "the session",
  seriesCoach: "the series",
  occurrenceCoach: "the occurrence (with `scope=following`: the series)",
  groupCoach: "the group, or of a group above it"
}

/** Who may call an operation of core's role table, in words: the same table the server enforces. */
export const whoMayCall = (operation: Operation): string => {
  const roles = rolesOf(operation)
  const everyRole = roles.length === 3
  const owner = (RoleTable[operation] as { readonly owner?: "athlete" | "user" }).owner
  const coachOwns = coachOwnershipOf(operation)
  const handOver = handOverRoles(operation)
  const listed = either(roles.map((role) =>
    role === "COACH" && coachOwns !== undefined
      ? coachOwns === "groupCoach"
        ? `a COACH of ${coachedRecord[coachOwns]}`
        : operation.endsWith(".create")
        ? `the COACH of ${
          coachedRecord[coachOwns]
        } (its \`coachId\`; any coach when it has none; a create is for the calling coach when \`coachId\` is absent)`
        : `the COACH of ${
          coachedRecord[coachOwns]
        } (its \`coachId\`, or a coach of its group or of a group above it; any coach when it has none)`
      : role
  ))
  const byOwner = owner === "athlete"
    ? ", or the ATHLETE user linked to the athlete `{id}`"
    : owner === "user"
    ? ", or the user `{id}` itself"
    : ""
  const byGuardian = admitsGuardians(operation) ? ", or a guardian of the athlete `{id}` (a user of any role)" : ""
  const byHandOver = handOver.length === 0
    ? ""
    : `; ${either(handOver)} may only hand it over (a body that changes \`coachId\` alone)`
  const refused = coachOwns === undefined
    ? "Any other caller: 403, before the request is read"
    : "Any other role: 403, before the request is read; another coach: 403"
  return everyRole
    ? "**Who may call it:** any authenticated user (ADMIN, COACH or ATHLETE). Without a valid token: 401."
    : `**Who may call it:** ${listed}${byOwner}${byGuardian}${byHandOver}. ${refused}; without a valid token: 401.`
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
