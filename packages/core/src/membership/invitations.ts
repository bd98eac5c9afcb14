import type { Group, Membership } from "./Group.ts"
import type { AthleteId } from "../shared/Ids.ts"
import type { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import type { Table } from "../shared/Table.ts"

/** What the in-memory rules of invitations read: the store's groups and memberships. */
export interface MembershipTables {
  readonly groups: Table<Group>
  readonly memberships: Table<Membership>
}

/** What of a session (or a series) decides who its group invites. */
export interface GroupedRecord {
  readonly groupe: string | null
  readonly creneau: LocalDateTime | null
}

/**
 * The day a session invites its group's members on: the day of its `creneau` (a wall-clock time
 * at the club, so its date is the club's day); a session without one invites today's members.
 */
export const sessionDay = (creneau: LocalDateTime | null, today: CalendarDate): CalendarDate =>
  creneau === null ? today : creneau.slice(0, 10) as CalendarDate

/** The group whose name the `groupe` is, exactly; none for a label that names no group. */
export const groupNamed = (tables: MembershipTables, groupe: string | null): Group | undefined => {
  if (groupe === null) return undefined
  for (const group of tables.groups.values()) if (group.name === groupe) return group
  return undefined
}

/** Whether one of the athlete's memberships of the group contains the day (both ends included). */
export const memberOn = (tables: MembershipTables, groupId: number, athleteId: AthleteId, day: CalendarDate) => {
  for (const m of tables.memberships.values()) {
    if (m.groupId === groupId && m.athleteId === athleteId && m.from <= day && (m.until === null || m.until >= day)) {
      return true
    }
  }
  return false
}

/** Whether the session's group invites the athlete: a member of it on the session's day (docs/membership.md). */
export const invitedByMembership = (
  tables: MembershipTables,
  session: GroupedRecord,
  athleteId: AthleteId,
  today: CalendarDate
): boolean => {
  const group = groupNamed(tables, session.groupe)
  return group !== undefined && memberOn(tables, group.id, athleteId, sessionDay(session.creneau, today))
}

/**
 * The coaches of the group `groupe` names and of every group above it, each once, nearest group
 * first (what `OwnedRecord.groupCoachIds` holds); none for a label. The walk stops at a group seen
 * twice, which the tree's rules never make.
 */
export const groupCoachIdsOf = (tables: MembershipTables, groupe: string | null): ReadonlyArray<number> => {
  const found: Array<number> = []
  const seen = new Set<number>()
  let group = groupNamed(tables, groupe)
  while (group !== undefined && !seen.has(group.id)) {
    seen.add(group.id)
    for (const coachId of group.coachIds) if (!found.includes(coachId)) found.push(coachId)
    group = group.parentId === null ? undefined : tables.groups.get(group.parentId)
  }
  return found
}
