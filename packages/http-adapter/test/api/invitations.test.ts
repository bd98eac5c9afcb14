import {
  type AthleteId,
  type CalendarDate,
  type CoachId,
  Group,
  type GroupId,
  Membership,
  type MembershipId,
  type UserId
} from "@club/core"
import type { InMemoryTables } from "@club/core/testing"
import { type GroupSeeder, invitationEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

let tables: InMemoryTables | undefined
const club = clubForFile({
  store: (built) => {
    tables = built
  }
})

/** Groups, memberships and guardianships written into the app's in-memory tables (no endpoint writes them yet). */
const seeder = (): GroupSeeder => {
  const { groups, guardians, memberships } = tables!
  const rootId = () =>
    (groups.all().find((group) => group.parentId === null) ??
      groups.insert(new Group({ id: groups.newId(null) as GroupId, name: "Club", parentId: null, coachIds: [] }))).id
  return {
    group: async (name, coachIds = [], parentId) =>
      groups.insert(
        new Group({
          id: groups.newId(null) as GroupId,
          name,
          parentId: (parentId ?? rootId()) as GroupId,
          coachIds: coachIds as ReadonlyArray<CoachId>
        })
      ).id,
    member: async (groupId, athleteId, from, until) =>
      memberships.insert(
        new Membership({
          id: memberships.newId(null) as MembershipId,
          groupId: groupId as GroupId,
          athleteId: athleteId as AthleteId,
          from: from as CalendarDate,
          until: (until ?? null) as CalendarDate | null
        })
      ).id,
    end: async (membershipId, until) => {
      memberships.insert(new Membership({ ...memberships.get(membershipId)!, until: until as CalendarDate }))
    },
    guard: async (userId, athleteId) => {
      const users = guardians.get(athleteId as AthleteId) ?? new Set<UserId>()
      users.add(userId as UserId)
      guardians.set(athleteId as AthleteId, users)
    }
  }
}

describe("Issue 41's sessions open to a group, in process", () => {
  invitationEndpoints(club, seeder)
})
