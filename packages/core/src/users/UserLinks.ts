import { InvalidValue } from "../shared/Errors.ts"
import type { AdminId, AthleteId, CoachId } from "../shared/Ids.ts"
import type { Role } from "../shared/Role.ts"
import type { NewUser } from "./UserRepository.ts"

export interface RequestedLinks {
  readonly coachId?: CoachId | null | undefined
  readonly athleteId?: AthleteId | null | undefined
  readonly adminId?: AdminId | null | undefined
}

/** The field naming the record a user of each role is linked to. */
export const linkFieldOf = { COACH: "coachId", ATHLETE: "athleteId", ADMIN: "adminId" } as const
export type LinkField = (typeof linkFieldOf)[Role]

/**
 * A user of a role is linked to one record of that kind: the one named, or (`create`) a new
 * one named after the user. Returns undefined when nothing was named and nothing must change.
 */
export const resolveLink = (
  role: Role,
  links: RequestedLinks,
  createWhenNone: boolean
): NewUser["link"] | InvalidValue | undefined => {
  const named = (["coachId", "athleteId", "adminId"] as const).filter((field) => links[field] != null)
  const expected = linkFieldOf[role]
  if (named.length > 1) {
    return new InvalidValue({ field: named[1]!, reason: "a user is linked to at most one record" })
  }
  const field = named[0]
  if (field === undefined) return createWhenNone ? "create" : undefined
  if (field !== expected) {
    return new InvalidValue({ field, reason: `a ${role} user is linked to a record of its own role (${expected})` })
  }
  switch (field) {
    case "coachId":
      return { coachId: links.coachId! }
    case "athleteId":
      return { athleteId: links.athleteId! }
    case "adminId":
      return { adminId: links.adminId! }
  }
}
