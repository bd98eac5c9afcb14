import { describe, expect, it } from "@effect/vitest"
import {
  type Actor,
  coachOwnershipOf,
  handOverRoles,
  isAllowed,
  type Operation,
  Operations,
  parseRole,
  type Role,
  rolesAllowed
} from "../src/index.ts"

/** The seed's and CONTRACT.md's rules, written out independently of the table they check. */
const expected: Record<Operation, ReadonlyArray<Role>> = {
  "activity.create": ["COACH"],
  "activity.update": ["COACH"],
  "activity.delete": ["COACH"],
  "activity.read": ["COACH", "ATHLETE"],
  "athlete.create": ["ADMIN"],
  "athlete.list": ["ADMIN", "COACH", "ATHLETE"],
  "athlete.read": ["ADMIN", "COACH", "ATHLETE"],
  "athlete.update": ["ADMIN"],
  "athlete.delete": ["ADMIN"],
  "schedule.read": ["ADMIN", "COACH", "ATHLETE"],
  "planning.read": ["ADMIN", "COACH", "ATHLETE"],
  "feed.token": ["ADMIN", "COACH", "ATHLETE"],
  "session.create": ["COACH"],
  "session.read": ["COACH", "ATHLETE"],
  "session.update": ["COACH"],
  "session.delete": ["COACH"],
  "plannedSession.create": ["COACH"],
  "plannedSession.update": ["ADMIN", "COACH"],
  "series.create": ["COACH"],
  "series.read": ["ADMIN", "COACH", "ATHLETE"],
  "series.cancel": ["COACH"],
  "series.update": ["ADMIN", "COACH"],
  "occurrence.cancel": ["COACH"],
  "occurrence.update": ["ADMIN", "COACH"],
  "conflict.read": ["ADMIN", "COACH"],
  "attendance.configure": ["COACH"],
  "attendance.read": ["ADMIN", "COACH", "ATHLETE"],
  "attendance.reply": ["COACH"],
  "attendance.mark": ["COACH"],
  "attendance.presence": ["ADMIN", "COACH"],
  "attendance.figures": ["ADMIN", "COACH"],
  "attendance.athleteFigures": ["ADMIN", "COACH"],
  "attendance.export": ["ADMIN", "COACH"],
  "webhook.manage": ["ADMIN"],
  "audit.read": ["ADMIN"],
  "group.create": ["ADMIN"],
  "group.read": ["ADMIN", "COACH", "ATHLETE"],
  "group.update": ["ADMIN"],
  "group.delete": ["ADMIN"],
  "membership.manage": ["ADMIN", "COACH"],
  "membership.read": ["ADMIN", "COACH", "ATHLETE"],
  "guardian.manage": ["ADMIN"],
  "guardian.read": ["ADMIN"],
  "coach.create": ["ADMIN"],
  "coach.read": ["ADMIN", "COACH"],
  "coach.update": ["ADMIN"],
  "coach.delete": ["ADMIN"],
  "user.create": ["ADMIN"],
  "user.list": ["ADMIN"],
  "user.read": ["ADMIN"],
  "user.update": ["ADMIN"],
  "user.delete": ["ADMIN"],
  "admin.create": ["ADMIN"],
  "admin.read": ["ADMIN"],
  "admin.update": ["ADMIN"],
  "admin.delete": ["ADMIN"],
  "auth.me": ["ADMIN", "COACH", "ATHLETE"],
  "noticePreference.own": ["ADMIN", "COACH", "ATHLETE"],
  "noticePreference.manage": ["ADMIN"],
  "person.export": ["ADMIN"],
  "person.erase": ["ADMIN"],
  "athletePerson.export": ["ADMIN"],
  "athletePerson.erase": ["ADMIN"],
  "task.create": ["ADMIN", "COACH", "ATHLETE"],
  "task.list": ["ADMIN", "COACH", "ATHLETE"],
  "task.delete": ["ADMIN", "COACH", "ATHLETE"]
}

const actor = (role: Role, links: Partial<Actor> = {}): Actor => ({
  userId: 1 as Actor["userId"],
  role,
  athleteId: null,
  coachId: null,
  adminId: null,
  ...links
})

describe("role table", () => {
  it("covers exactly the operations of the contract", () => {
    expect([...Operations].sort()).toEqual(Object.keys(expected).sort())
  })

  for (const operation of Object.keys(expected) as Array<Operation>) {
    for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
      const allowed = expected[operation].includes(role)
      it(`${operation} is ${allowed ? "allowed" : "refused"} to ${role}`, () => {
        expect(isAllowed(operation, actor(role))).toBe(allowed)
        expect(rolesAllowed(operation).includes(role)).toBe(allowed)
      })
    }
  }

  it("compares role names case-insensitively, as the seed spells them both ways", () => {
    expect(parseRole("Admin")).toBe("ADMIN")
    expect(parseRole("ADMIN")).toBe("ADMIN")
    expect(parseRole("coach")).toBe("COACH")
    expect(parseRole("Athlete")).toBe("ATHLETE")
    expect(parseRole("Referee")).toBeUndefined()
  })
})

describe("owner rules", () => {
  const athlete7 = actor("ATHLETE", { athleteId: 7 as Actor["athleteId"] })

  it("an athlete may update the athlete record linked to their own user", () => {
    expect(isAllowed("athlete.update", athlete7, { athleteId: 7 })).toBe(true)
  })

  it("an athlete may not update another athlete's record", () => {
    expect(isAllowed("athlete.update", athlete7, { athleteId: 8 })).toBe(false)
  })

  it("an athlete user with no linked record owns no athlete record", () => {
    expect(isAllowed("athlete.update", actor("ATHLETE"), { athleteId: 7 })).toBe(false)
  })

  it("a coach whose user id equals the athlete id is not its owner", () => {
    expect(isAllowed("athlete.update", actor("COACH", { userId: 7 as Actor["userId"] }), { athleteId: 7 })).toBe(false)
  })

  it("a user may read their own user record, and no other", () => {
    const coach = actor("COACH", { userId: 5 as Actor["userId"] })
    expect(isAllowed("user.read", coach, { userId: 5 })).toBe(true)
    expect(isAllowed("user.read", coach, { userId: 6 })).toBe(false)
  })

  it("a user may read and set their own notice preferences through a user's path, and no other's", () => {
    const athlete = actor("ATHLETE", { userId: 5 as Actor["userId"] })
    expect(isAllowed("noticePreference.manage", athlete, { userId: 5 })).toBe(true)
    expect(isAllowed("noticePreference.manage", athlete, { userId: 6 })).toBe(false)
  })
})

describe("coach ownership (issue 36): a coach acts on the sessions and series it coaches", () => {
  const coach = (id: number) => actor("COACH", { coachId: id as Actor["coachId"] })
  const owned = Operations.filter((operation) => coachOwnershipOf(operation) !== undefined)

  it("covers every planning and attendance write, and none of the seed's", () => {
    expect([...owned].sort()).toEqual([
      "attendance.configure",
      "attendance.mark",
      "attendance.reply",
      "membership.manage",
      "occurrence.cancel",
      "occurrence.update",
      "plannedSession.create",
      "plannedSession.update",
      "series.cancel",
      "series.create",
      "series.update"
    ])
  })

  for (const operation of owned.filter((operation) => coachOwnershipOf(operation) !== "groupCoach")) {
    it(`${operation}: the record's coach passes, another coach is refused, a record without a coach is any coach's`, () => {
      expect(isAllowed(operation, coach(3), { coachId: 3 })).toBe(true)
      expect(isAllowed(operation, coach(4), { coachId: 3 })).toBe(false)
      expect(isAllowed(operation, coach(4), { coachId: null })).toBe(true)
      // Before the record is loaded (the role gate), the role alone is judged.
      expect(isAllowed(operation, coach(4))).toBe(true)
    })
  }

  it("an admin may hand a session, a series or an occurrence over, and change nothing else of it", () => {
    const admin = actor("ADMIN")
    for (const operation of ["plannedSession.update", "series.update", "occurrence.update"] as const) {
      expect(handOverRoles(operation)).toEqual(["ADMIN"])
      expect(isAllowed(operation, admin, { coachId: 3, handOverOnly: true })).toBe(true)
      expect(isAllowed(operation, admin, { coachId: 3, handOverOnly: false })).toBe(false)
      // Another coach may not take it, even as a hand-over.
      expect(isAllowed(operation, coach(4), { coachId: 3, handOverOnly: true })).toBe(false)
    }
    expect(isAllowed("series.cancel", admin, { coachId: 3, handOverOnly: true })).toBe(false)
  })

  it("an athlete still replies for itself, whoever coaches the session", () => {
    const athlete7 = actor("ATHLETE", { athleteId: 7 as Actor["athleteId"] })
    expect(isAllowed("attendance.reply", athlete7, { athleteId: 7, coachId: 3 })).toBe(true)
    expect(isAllowed("attendance.reply", athlete7, { athleteId: 8, coachId: 3 })).toBe(false)
    expect(isAllowed("attendance.reply", coach(4), { athleteId: 7, coachId: 3 })).toBe(false)
  })
})

describe("groups and guardians (issue 41)", () => {
  const coach = (id: number) => actor("COACH", { coachId: id as Actor["coachId"] })
  const sessionRules = [
    "attendance.configure",
    "attendance.mark",
    "plannedSession.update",
    "occurrence.cancel"
  ] as const

  it("a coach of the session's group, or of a group above it, acts on the session; other coaches do not", () => {
    for (const operation of sessionRules) {
      expect(isAllowed(operation, coach(5), { coachId: 3, groupCoachIds: [9, 5] })).toBe(true)
      expect(isAllowed(operation, coach(4), { coachId: 3, groupCoachIds: [9, 5] })).toBe(false)
      expect(isAllowed(operation, coach(3), { coachId: 3, groupCoachIds: [] })).toBe(true)
    }
  })

  it("a group's memberships are managed by admins and by the coaches of the group or of a group above it", () => {
    expect(coachOwnershipOf("membership.manage")).toBe("groupCoach")
    expect(isAllowed("membership.manage", actor("ADMIN"), { groupCoachIds: [] })).toBe(true)
    expect(isAllowed("membership.manage", coach(5), { groupCoachIds: [5] })).toBe(true)
    expect(isAllowed("membership.manage", coach(4), { groupCoachIds: [5] })).toBe(false)
    // A group with no coach is not any coach's: only its admins and the coaches above manage it.
    expect(isAllowed("membership.manage", coach(4), { groupCoachIds: [] })).toBe(false)
    expect(isAllowed("membership.manage", actor("ATHLETE"), { groupCoachIds: [] })).toBe(false)
  })

  it("a guardian replies for the athletes it guards, whatever its role, and for no other", () => {
    const guardian = actor("ATHLETE", { userId: 40 as Actor["userId"] })
    expect(isAllowed("attendance.reply", guardian, { athleteId: 7, coachId: 3, guardians: [40] })).toBe(true)
    expect(isAllowed("attendance.reply", guardian, { athleteId: 8, coachId: 3, guardians: [41] })).toBe(false)
    // The link gives nothing but the operations whose rule names guardians.
    expect(isAllowed("athlete.update", guardian, { athleteId: 7, guardians: [40] })).toBe(false)
    expect(isAllowed("attendance.athleteFigures", guardian, { athleteId: 7, guardians: [40] })).toBe(false)
  })

  it("a guardian exports the person of the athletes it guards, as the athlete does its own; only an admin erases", () => {
    const guardian = actor("COACH", { userId: 40 as Actor["userId"], coachId: 2 as Actor["coachId"] })
    expect(isAllowed("athletePerson.export", guardian, { athleteId: 7, guardians: [40] })).toBe(true)
    expect(isAllowed("athletePerson.export", guardian, { athleteId: 8, guardians: [41] })).toBe(false)
    const athlete7 = actor("ATHLETE", { userId: 41 as Actor["userId"], athleteId: 7 as Actor["athleteId"] })
    expect(isAllowed("athletePerson.export", athlete7, { athleteId: 7, guardians: [] })).toBe(true)
    expect(isAllowed("athletePerson.export", athlete7, { athleteId: 8, guardians: [] })).toBe(false)
    expect(isAllowed("athletePerson.export", actor("ADMIN"), { athleteId: 8, guardians: [] })).toBe(true)
    expect(isAllowed("athletePerson.erase", guardian, { athleteId: 7, guardians: [40] })).toBe(false)
    expect(isAllowed("athletePerson.erase", athlete7, { athleteId: 7, guardians: [] })).toBe(false)
  })
})
