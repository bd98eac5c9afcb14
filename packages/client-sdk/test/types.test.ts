import { describe, expectTypeOf, it } from "vitest"
import type { ActivityId, AthleteId, ClubClient, CoachId, SessionDto, SessionId } from "../src/index.ts"

/**
 * What the type checker says of the SDK's ids: branded in and out, on both faces. Checked when the
 * test command type-checks this file; the assertions below run as no-ops.
 */
describe("branded ids", () => {
  it("answers carry branded ids", () => {
    expectTypeOf<SessionDto["id"]>().toEqualTypeOf<SessionId>()
    expectTypeOf<SessionDto["coachId"]>().toEqualTypeOf<CoachId | null>()
    expectTypeOf<SessionDto["athleteIds"]>().toEqualTypeOf<ReadonlyArray<AthleteId>>()
    expectTypeOf<SessionDto["activiteIds"]>().toEqualTypeOf<ReadonlyArray<ActivityId>>()
  })

  it("a coach's id is not a session's", () => {
    type GetSession = Parameters<ClubClient["sessions"]["get"]>[0]
    expectTypeOf<{ params: { id: SessionId } }>().toExtend<GetSession>()
    expectTypeOf<{ params: { id: CoachId } }>().not.toExtend<GetSession>()
    expectTypeOf<{ params: { id: number } }>().not.toExtend<GetSession>()
  })

  it("both faces name every call alike", () => {
    expectTypeOf<keyof ClubClient["schedule"]>().toEqualTypeOf<
      "sessionsOfAthlete" | "allSessions" | "activitiesOfSession" | "sessionsAfter" | "sessionsBetween"
    >()
  })

  it("the schedule's writes are calls, derived from the contract", () => {
    expectTypeOf<keyof ClubClient["series"]>().toEqualTypeOf<
      | "createSeries"
      | "getSeries"
      | "conflicts"
      | "cancelSeries"
      | "cancelOccurrence"
      | "changeSeries"
      | "changeOccurrence"
    >()
    expectTypeOf<keyof ClubClient["planning"]>().toEqualTypeOf<"sessions" | "createSession" | "changeSession">()
    type ChangeOccurrence = Parameters<ClubClient["series"]["changeOccurrence"]>[0]
    expectTypeOf<ChangeOccurrence["params"]["sessionId"]>().toEqualTypeOf<SessionId>()
  })
})
