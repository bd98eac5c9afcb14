import { describe, expect, it } from "@effect/vitest"
import type { AthleteId, CoachId } from "../src/index.ts"
import { InvalidValue } from "../src/index.ts"
import { resolveLink } from "../src/users/UserLinks.ts"

describe("user links", () => {
  it("creates a record of the role's kind when none is named", () => {
    expect(resolveLink("COACH", {}, true)).toBe("create")
  })

  it("keeps the link when nothing is named and nothing must change", () => {
    expect(resolveLink("COACH", {}, false)).toBeUndefined()
  })

  it("links the named record of the user's role", () => {
    expect(resolveLink("ATHLETE", { athleteId: 4 as AthleteId }, true)).toEqual({ athleteId: 4 })
  })

  it("refuses a record of another role, naming the field", () => {
    const result = resolveLink("ATHLETE", { coachId: 4 as CoachId }, true)
    expect(result).toBeInstanceOf(InvalidValue)
    expect((result as InvalidValue).field).toBe("coachId")
  })

  it("refuses two links", () => {
    const result = resolveLink("COACH", { coachId: 1 as CoachId, athleteId: 2 as AthleteId }, true)
    expect(result).toBeInstanceOf(InvalidValue)
  })
})
