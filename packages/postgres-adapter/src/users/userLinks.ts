import { type EntityKind, type NewUser, RecordAlreadyLinked, type Role } from "@club/core"

/** The three kinds of record a user can be linked to, named as the inputs name them. */
export type LinkKind = "coachId" | "athleteId" | "adminId"

export interface LinkColumns {
  readonly coach_id: number | null
  readonly athlete_id: number | null
  readonly admin_id: number | null
}

interface LinkTarget {
  readonly table: string
  readonly entity: EntityKind
  readonly column: keyof LinkColumns
  /** The UNIQUE constraint that keeps a record linked to at most one user (migration 0002). */
  readonly constraint: string
}

export const linkTargets: Record<LinkKind, LinkTarget> = {
  coachId: { table: "coaches", entity: "Coach", column: "coach_id", constraint: "users_coach_id_unique" },
  athleteId: { table: "athletes", entity: "Athlete", column: "athlete_id", constraint: "users_athlete_id_unique" },
  adminId: { table: "admins", entity: "Admin", column: "admin_id", constraint: "users_admin_id_unique" }
}

/** Which kind of record a user of each role is linked to, and gets when none is named. */
export const linkKindOfRole: Record<Role, LinkKind> = { ADMIN: "adminId", COACH: "coachId", ATHLETE: "athleteId" }

export const linkedRecord = (
  link: Exclude<NewUser["link"], "create">
): { readonly kind: LinkKind; readonly id: number } =>
  "coachId" in link
    ? { kind: "coachId", id: link.coachId }
    : "athleteId" in link
    ? { kind: "athleteId", id: link.athleteId }
    : { kind: "adminId", id: link.adminId }

/** A user has at most one link: setting one clears the others. */
export const linkColumns = (kind: LinkKind, id: number): LinkColumns => ({
  coach_id: kind === "coachId" ? id : null,
  athlete_id: kind === "athleteId" ? id : null,
  admin_id: kind === "adminId" ? id : null
})

/** For each link constraint, the error when another user already holds the record being linked. */
export const alreadyLinkedErrors = (links: LinkColumns): Record<string, () => RecordAlreadyLinked> =>
  Object.fromEntries(
    Object.values(linkTargets).flatMap((target) => {
      const id = links[target.column]
      return id === null ? [] : [[target.constraint, () => new RecordAlreadyLinked({ entity: target.entity, id })]]
    })
  )
