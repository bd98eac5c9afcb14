import { Effect } from "effect"
import { traced } from "./traced.ts"
import { type Actor, CurrentActor } from "./Actor.ts"
import { NotPermitted } from "./Errors.ts"
import type { CoachId } from "./Ids.ts"
import { parseRole, type Role, Roles } from "./Role.ts"

/** Any authenticated caller: the seed's operations "with no role restriction" (CONTRACT.md). */
const anyRole = ["ADMIN", "COACH", "ATHLETE"] as const

/** Whose coach a COACH must be to act on the record a request names (issue 36's ownership rule). */
export type CoachOwnership = "sessionCoach" | "seriesCoach" | "occurrenceCoach" | "groupCoach"

interface RoleRule {
  readonly roles: ReadonlyArray<string>
  readonly owner?: "athlete" | "user"
  readonly guardian?: true
  readonly coachOwns?: CoachOwnership
  readonly handOver?: ReadonlyArray<string>
}

/**
 * The role rules, written as the seed writes them (`Coach`, `ADMIN`, ...): spellings compare
 * case-insensitively. `owner` adds the caller who owns the record the request names.
 * `coachOwns` narrows the COACH role to the coach of the record acted on (its `coachId`: the
 * session's, the series', or, for an occurrence, the session's with `scope=one` and the series'
 * with `scope=following`); a record without a coach is any coach's, and a create names the coach
 * it is for (absent: the caller). A coach of the record's group, or of a group above it, acts on
 * it as its own coach does (`groupCoachIds`, issue 41); `groupCoach` is that rule alone, for the
 * group itself (its memberships). `guardian` adds the users linked to the record's athlete as its
 * guardians (docs/membership.md). `handOver` adds roles that may change only the record's `coachId`.
 * The seed's own endpoints (`session.*`, `activity.*`) keep the seed's rule: any coach.
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
  "plannedSession.create": { roles: ["Coach"], coachOwns: "sessionCoach" },
  "plannedSession.update": { roles: ["Coach"], coachOwns: "sessionCoach", handOver: ["Admin"] },
  "series.create": { roles: ["Coach"], coachOwns: "seriesCoach" },
  "series.read": { roles: anyRole },
  "series.cancel": { roles: ["Coach"], coachOwns: "seriesCoach" },
  "series.update": { roles: ["Coach"], coachOwns: "seriesCoach", handOver: ["Admin"] },
  "occurrence.cancel": { roles: ["Coach"], coachOwns: "occurrenceCoach" },
  "occurrence.update": { roles: ["Coach"], coachOwns: "occurrenceCoach", handOver: ["Admin"] },
  "conflict.read": { roles: ["Admin", "Coach"] },
  "attendance.configure": { roles: ["Coach"], coachOwns: "sessionCoach" },
  "attendance.read": { roles: anyRole },
  "attendance.reply": { roles: ["Coach"], owner: "athlete", guardian: true, coachOwns: "sessionCoach" },
  "attendance.mark": { roles: ["Coach"], coachOwns: "sessionCoach" },
  "attendance.presence": { roles: ["Admin", "Coach"] },
  "attendance.figures": { roles: ["Admin", "Coach"] },
  "attendance.athleteFigures": { roles: ["Admin", "Coach"], owner: "athlete" },
  "attendance.export": { roles: ["Admin", "Coach"] },
  "webhook.manage": { roles: ["Admin"] },
  "audit.read": { roles: ["Admin"] },
  "group.create": { roles: ["Admin"] },
  "group.read": { roles: anyRole },
  "group.update": { roles: ["Admin"] },
  "group.delete": { roles: ["Admin"] },
  "membership.manage": { roles: ["Admin", "Coach"], coachOwns: "groupCoach" },
  "membership.read": { roles: anyRole },
  "guardian.manage": { roles: ["Admin"] },
  "guardian.read": { roles: ["Admin"], owner: "user" },
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
  "noticePreference.own": { roles: anyRole },
  "noticePreference.manage": { roles: ["Admin"], owner: "user" },
  "person.export": { roles: ["Admin"], owner: "user" },
  "person.erase": { roles: ["Admin"] },
  "athletePerson.export": { roles: ["Admin"], owner: "athlete", guardian: true },
  "athletePerson.erase": { roles: ["Admin"] },
  "task.create": { roles: anyRole },
  "task.list": { roles: anyRole },
  "task.delete": { roles: anyRole }
} as const satisfies Record<string, RoleRule>

export type Operation = keyof typeof RoleTable
const ruleOf = (operation: Operation): RoleRule => RoleTable[operation]
export const Operations = Object.keys(RoleTable) as ReadonlyArray<Operation>

const spelledRoles = (spelled: ReadonlyArray<string>) =>
  Roles.filter((role) => spelled.some((name) => parseRole(name) === role))

// Read from the table once: every request checks its operation, and in the REST API twice (the
// role gate before decoding, then the use-case).
const rolesByOperation = new Map<Operation, ReadonlyArray<Role>>(
  Operations.map((operation) => [operation, spelledRoles(ruleOf(operation).roles)])
)
const handOverByOperation = new Map<Operation, ReadonlyArray<Role>>(
  Operations.map((operation) => [operation, spelledRoles(ruleOf(operation).handOver ?? [])])
)
const gateByOperation = new Map<Operation, ReadonlyArray<Role>>(Operations.map((operation) => [
  operation,
  Roles.filter((role) =>
    rolesByOperation.get(operation)!.includes(role) || handOverByOperation.get(operation)!.includes(role)
  )
]))

/** The roles that get past the role gate (the table's roles and its hand-over roles), in their stored spelling. */
export const rolesAllowed = (operation: Operation): ReadonlyArray<Role> => gateByOperation.get(operation) ?? []

/** The roles the table gives the whole operation, before any ownership rule. */
export const rolesOf = (operation: Operation): ReadonlyArray<Role> => rolesByOperation.get(operation) ?? []

/** The roles that may only hand the record over (change its `coachId`). */
export const handOverRoles = (operation: Operation): ReadonlyArray<Role> => handOverByOperation.get(operation) ?? []

/**
 * Whether the operation's rule admits the athlete's guardians (`guardian: true`): the role gate, which
 * has not loaded them, cannot refuse a caller on its role alone, as any user may be a guardian.
 */
export const admitsGuardians = (operation: Operation): boolean => ruleOf(operation).guardian === true

/** The coach ownership rule of an operation, if any. */
export const coachOwnershipOf = (operation: Operation): CoachOwnership | undefined => ruleOf(operation).coachOwns

/** The record an operation's owner rule refers to, when the request names one. */
export interface OwnedRecord {
  readonly athleteId?: number
  readonly userId?: number
  /**
   * The coach of the session or series acted on (or, for a create, the coach it is for), as the
   * use-case loaded it; null: it has none. Absent before the record is loaded (the role gate).
   */
  readonly coachId?: number | null
  /**
   * The coaches of the record's group (a session's or series' `groupe`, or the group acted on) and
   * of every group above it, as the use-case loaded them; absent before the record is loaded.
   */
  readonly groupCoachIds?: ReadonlyArray<number>
  /** The users who are guardians of the record's athlete, as the use-case loaded them. */
  readonly guardians?: ReadonlyArray<number>
  /** Whether the request changes the record's `coachId` and nothing else; absent before the body is read. */
  readonly handOverOnly?: boolean
  /** What the record is, for the refusal's message: `session 7`. */
  readonly subject?: string
}

const ownsRecord = (operation: Operation, actor: Actor, record: OwnedRecord): boolean => {
  if (ruleOf(operation).guardian === true && record.guardians?.includes(actor.userId) === true) return true
  switch (ruleOf(operation).owner) {
    case "athlete":
      return actor.role === "ATHLETE" && actor.athleteId !== null && actor.athleteId === record.athleteId
    case "user":
      return actor.userId === record.userId
    default:
      return false
  }
}

/**
 * A coach acts on what it coaches, on what a group it coaches (or one above) holds, and on what has
 * no coach; not judged before the record is loaded.
 */
const coachesRecord = (operation: Operation, actor: Actor, record: OwnedRecord): boolean => {
  const rule = ruleOf(operation).coachOwns
  if (rule === undefined || actor.role !== "COACH") return true
  const coachesGroup = actor.coachId !== null && record.groupCoachIds?.includes(actor.coachId) === true
  if (rule === "groupCoach") return record.groupCoachIds === undefined || coachesGroup
  return record.coachId === undefined || record.coachId === null || record.coachId === actor.coachId ||
    coachesGroup
}

export const isAllowed = (operation: Operation, actor: Actor, record: OwnedRecord = {}): boolean => {
  if (ownsRecord(operation, actor, record)) return true
  if (rolesOf(operation).includes(actor.role)) return coachesRecord(operation, actor, record)
  return handOverRoles(operation).includes(actor.role) && record.handOverOnly !== false
}

/** Checks the current actor against the role table; every use-case starts with this. */
export const authorize = traced("authorize")(function*(operation: Operation, record: OwnedRecord = {}) {
  const actor = yield* CurrentActor
  if (!isAllowed(operation, actor, record)) {
    const coached = record.coachId !== undefined && record.coachId !== null && actor.role === "COACH" &&
      rolesOf(operation).includes(actor.role)
    return yield* new NotPermitted({
      operation: coached
        ? `${operation} on ${record.subject ?? "a record"}, coached by coach ${record.coachId}`
        : operation
    })
  }
  return actor
})

/** The coach a create through the planning is for: the one named, or, when none is, the calling coach. */
export const coachFor = (named: CoachId | null) =>
  Effect.gen(function*() {
    const actor = yield* CurrentActor
    return named ?? (actor.role === "COACH" ? actor.coachId : null)
  })

/** Whether a change touches the record's `coachId` and nothing else: a hand-over. */
export const handsOverOnly = (change: object): boolean => {
  const given = Object.entries(change).filter(([, value]) => value !== undefined).map(([key]) => key)
  return given.length === 1 && given[0] === "coachId"
}

/**
 * How far a role reaches in an operation, as the role table says: `any` record; only the records it
 * `coached` (a coach's sessions and series, and those of no coach); only its `own` record (an
 * athlete's, or a user's own); or only `handOver` (change a record's coach and nothing else).
 */
export const Reaches = ["any", "coached", "own", "handOver"] as const
export type Reach = (typeof Reaches)[number]

/** The operations `role` may call and how far it reaches in each: what `GET /auth/me` answers. */
export const reachesOf = (role: Role): Partial<Record<Operation, Reach>> => {
  const reaches: Partial<Record<Operation, Reach>> = {}
  for (const operation of Operations) {
    const rule = ruleOf(operation)
    if (rolesOf(operation).includes(role)) {
      reaches[operation] = rule.coachOwns !== undefined && role === "COACH" ? "coached" : "any"
    } else if (rule.owner === "user" || (rule.owner === "athlete" && role === "ATHLETE")) {
      reaches[operation] = "own"
    } else if (handOverRoles(operation).includes(role)) {
      reaches[operation] = "handOver"
    }
  }
  return reaches
}
