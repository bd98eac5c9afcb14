import { describe, expect, it } from "@effect/vitest"
import { type Actor, isAllowed, type Operation, Operations, parseRole, type Role, rolesAllowed } from "../src/index.ts"

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
  "series.create": ["COACH"],
  "series.read": ["ADMIN", "COACH", "ATHLETE"],
  "series.cancel": ["COACH"],
  "series.update": ["COACH"],
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
})
