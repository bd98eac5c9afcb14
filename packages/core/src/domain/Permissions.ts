import { traced } from "../tracing/traced.ts"
import { type Actor, CurrentActor } from "./Actor.ts"
import { NotPermitted } from "./Errors.ts"
import { parseRole, type Role, Roles } from "./Role.ts"

/** Any authenticated caller: the seed's operations "with no role restriction" (CONTRACT.md). */
const anyRole = ["ADMIN", "COACH", "ATHLETE"] as const

interface RoleRule {
  readonly roles: ReadonlyArray<string>
  readonly owner?: "athlete" | "user"
}

/**
 * The role rules, written as the seed writes them (`Coach`, `ADMIN`, ...): spellings compare
 * case-insensitively. `owner` adds the caller who owns the record the request names.
 */
export const RoleTable = {
  "activity.create": { roles: ["Coach"] },
  "activity.update": { roles: ["Coach"] },
  "activity.delete": { roles: ["Coach"] },
  "activity.read": { roles: ["Coach", "Athlete"] },
  "athlete.create": { roles: ["Admin"] },
  "athlete.list": { roles: ["Admin", "Coach", "Athlete"] },
  "athlete.read": { roles: ["Admin", "Coach", "Athlete"] },
  "athlete.update": { roles: ["ADMIN"], owner: "athlete" },
  "athlete.delete": { roles: ["Admin"] },
  "schedule.read": { roles: anyRole },
  "planning.read": { roles: anyRole },
  "feed.token": { roles: anyRole },
  "session.create": { roles: ["Coach"] },
  "session.read": { roles: ["Coach", "Athlete"] },
  "session.update": { roles: ["Coach"] },
  "session.delete": { roles: ["Coach"] },
  "series.create": { roles: ["Coach"] },
  "series.read": { roles: anyRole },
  "series.cancel": { roles: ["Coach"] },
  "series.update": { roles: ["Coach"] },
  "conflict.read": { roles: ["Admin", "Coach"] },
  "attendance.configure": { roles: ["Coach"] },
  "attendance.read": { roles: anyRole },
  "attendance.reply": { roles: ["Coach"], owner: "athlete" },
  "attendance.mark": { roles: ["Coach"] },
  "attendance.presence": { roles: ["Admin", "Coach"] },
  "attendance.figures": { roles: ["Admin", "Coach"] },
  "attendance.athleteFigures": { roles: ["Admin", "Coach"], owner: "athlete" },
  "attendance.export": { roles: ["Admin", "Coach"] },
  "webhook.manage": { roles: ["Admin"] },
  "coach.create": { roles: ["Admin"] },
  "coach.read": { roles: ["Admin", "Coach"] },
  "coach.update": { roles: ["Admin"] },
  "coach.delete": { roles: ["Admin"] },
  "user.create": { roles: ["Admin"] },
  "user.list": { roles: ["Admin"] },
  "user.read": { roles: ["Admin"], owner: "user" },
  "user.update": { roles: ["Admin"] },
  "user.delete": { roles: ["Admin"] },
  "admin.create": { roles: ["Admin"] },
  "admin.read": { roles: ["Admin"] },
  "admin.update": { roles: ["Admin"] },
  "admin.delete": { roles: ["Admin"] },
  "auth.me": { roles: anyRole },
  "task.create": { roles: anyRole },
  "task.list": { roles: anyRole },
  "task.delete": { roles: anyRole }
} as const satisfies Record<string, RoleRule>

export type Operation = keyof typeof RoleTable
const ruleOf = (operation: Operation): RoleRule => RoleTable[operation]
export const Operations = Object.keys(RoleTable) as ReadonlyArray<Operation>

// Read from the table once: every request checks its operation, and in the REST API twice (the
// role gate before decoding, then the use-case).
const allowedByOperation = new Map<Operation, ReadonlyArray<Role>>(Operations.map((operation) => {
  const spelled = ruleOf(operation).roles
  return [operation, Roles.filter((role) => spelled.some((name) => parseRole(name) === role))]
}))

/** The roles allowed by the table, in their stored spelling. */
export const rolesAllowed = (operation: Operation): ReadonlyArray<Role> => allowedByOperation.get(operation) ?? []

/** The record an operation's owner rule refers to, when the request names one. */
export interface OwnedRecord {
  readonly athleteId?: number
  readonly userId?: number
}

const ownsRecord = (operation: Operation, actor: Actor, record: OwnedRecord): boolean => {
  switch (ruleOf(operation).owner) {
    case "athlete":
      return actor.role === "ATHLETE" && actor.athleteId !== null && actor.athleteId === record.athleteId
    case "user":
      return actor.userId === record.userId
    default:
      return false
  }
}

export const isAllowed = (operation: Operation, actor: Actor, record: OwnedRecord = {}): boolean =>
  rolesAllowed(operation).includes(actor.role) || ownsRecord(operation, actor, record)

/** Checks the current actor against the role table; every use-case starts with this. */
export const authorize = traced("authorize")(function*(operation: Operation, record: OwnedRecord = {}) {
  const actor = yield* CurrentActor
  if (!isAllowed(operation, actor, record)) return yield* new NotPermitted({ operation })
  return actor
})
