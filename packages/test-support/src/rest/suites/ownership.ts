import { describe, expect, it } from "vitest"
import { expectProblem, expectStatus } from "../../expectations.ts"
import type { Caller, Club } from "../Club.ts"
import { callerFor, createAthlete, createCoachMember, createSession, readSession } from "../records.ts"

interface SeriesDto {
  readonly id: number
  readonly name: string | null
  readonly coachId: number | null
  readonly occurrences: ReadonlyArray<{ readonly sessionId: number }>
}

interface SessionDto {
  readonly id: number
  readonly name: string | null
  readonly coachId: number | null
}

let day = 0
/** A wall-clock time days ahead (within the club's horizon), a different day for each call. */
const ahead = (hour = 10) =>
  `${new Date(Date.now() + (10 + ++day) * 86_400_000).toISOString().slice(0, 10)}T${
    String(hour).padStart(2, "0")
  }:00:00`

/**
 * Issue 36's ownership rule on the planning and attendance writes, case by case: coach A's sessions
 * and series are A's; coach B gets 403 and nothing changes; A may hand one over, and so may an
 * admin (that and nothing else); a session without a coach is any coach's.
 */
export const ownershipRules = (club: () => Club) => {
  /** Coach A and coach B, each with a user of its own; an athlete of A's sessions. */
  const actors = async () => {
    const a = await createCoachMember(club(), { name: "Coach A" })
    const b = await createCoachMember(club(), { name: "Coach B" })
    const athlete = await createAthlete(club())
    return { a: a.id, b: b.id, A: callerFor(club(), a.id), B: callerFor(club(), b.id), athleteId: athlete.id }
  }
  const weekly = async (coach: Caller, athleteIds: ReadonlyArray<number>) => {
    const reply = await coach.post("/planning/series", {
      name: "A's weekly",
      athleteIds,
      duree: 60,
      start: ahead(),
      rrule: "FREQ=WEEKLY;COUNT=3"
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body as SeriesDto
  }
  const patch = (caller: Caller, path: string, json: unknown) => caller.send("PATCH", path, { json })
  /** The series as read, without `expandedUntil`: a read extends a series to the horizon, which moves with the clock. */
  const seriesOf = async (id: number) => {
    const { expandedUntil: _moving, ...series } = (await club().admin.get(`/planning/series/${id}`)).body as
      & SeriesDto
      & { readonly expandedUntil: string }
    return series
  }
  const repliesOf = async (sessionId: number) =>
    (await club().admin.get(`/attendance/sessions/${sessionId}/replies`)).text

  it("a coach creates for itself: coachId absent is the caller, another coach's id is 403", async () => {
    const { a, b, A } = await actors()
    const created = await A.post("/planning/sessions", { name: "Mine", creneau: ahead(), duree: 30 })
    expect(created.status, created.text).toBe(201)
    expect((created.body as SessionDto).coachId).toBe(a)
    expectProblem(
      await A.post("/planning/sessions", { name: "Not mine", coachId: b, creneau: ahead(), duree: 30 }),
      403
    )
    const series = await weekly(A, [])
    expect(series.coachId).toBe(a)
    expectProblem(
      await A.post("/planning/series", { coachId: b, duree: 30, start: ahead(), rrule: "FREQ=DAILY;COUNT=1" }),
      403
    )
  })

  it("coach B may not reply for the athletes of A's session, with scope=one or following (403, nothing written); A and the athlete may", async () => {
    const { A, B, athleteId } = await actors()
    const series = await weekly(A, [athleteId])
    const [first, second] = series.occurrences.map((o) => o.sessionId)
    const before = await Promise.all([first!, second!].map(repliesOf))
    expectProblem(await B.put(`/attendance/athletes/${athleteId}/replies/${first}`, { answer: "yes" }), 403)
    expectProblem(
      await B.put(`/attendance/athletes/${athleteId}/replies/${first}?scope=following`, { answer: "no" }),
      403
    )
    expect(await Promise.all([first!, second!].map(repliesOf))).toEqual(before)
    expectStatus(
      await A.put(`/attendance/athletes/${athleteId}/replies/${first}?scope=following`, { answer: "yes" }),
      200
    )
  })

  it("coach B may not take A's session by patching coachId to itself, started or not; A may hand it over, and then B owns it", async () => {
    const { a, b, A, B } = await actors()
    const created = (await A.post("/planning/sessions", { name: "A's", creneau: ahead(), duree: 30 }))
      .body as SessionDto
    expectProblem(await patch(B, `/planning/sessions/${created.id}`, { coachId: b }), 403)
    expectProblem(await patch(B, `/planning/sessions/${created.id}`, { name: "B's" }), 403)
    expect(await readSession(club(), created.id)).toMatchObject({ coachId: a, name: "A's" })
    // Started: a session of A written through the seed, in the past.
    const started = await createSession(club(), { creneau: "2020-01-01T10:00:00", duree: 30, coachId: a })
    expectProblem(await patch(B, `/planning/sessions/${started.id}`, { coachId: b }), 403)
    expectProblem(await B.put(`/attendance/sessions/${started.id}/presence`, { marks: [] }), 403)

    const handed = await patch(A, `/planning/sessions/${created.id}`, { coachId: b })
    expect(handed.status, handed.text).toBe(200)
    expectProblem(await patch(A, `/planning/sessions/${created.id}`, { name: "A's again" }), 403)
    expectStatus(await patch(B, `/planning/sessions/${created.id}`, { name: "B's now" }), 200)
  })

  it("coach B may not mark A's session, nor set its capacity (403)", async () => {
    const { a, B, A, athleteId } = await actors()
    const session = await createSession(club(), {
      creneau: "2020-01-02T10:00:00",
      duree: 30,
      coachId: a,
      athleteIds: [athleteId]
    })
    const marks = { marks: [{ athleteId, status: "present" }] }
    expectProblem(await B.put(`/attendance/sessions/${session.id}/presence`, marks), 403)
    expectProblem(await B.put(`/attendance/sessions/${session.id}/settings`, { capacity: 1 }), 403)
    expect((await club().admin.get(`/attendance/sessions/${session.id}/presence`)).body).toMatchObject({ history: [] })
    expectStatus(await A.put(`/attendance/sessions/${session.id}/presence`, marks), 200)
  })

  it("coach B may not change or cancel A's series, nor its occurrences (403, nothing changes)", async () => {
    const { B, A } = await actors()
    const series = await weekly(A, [])
    const [first, second] = series.occurrences.map((o) => o.sessionId)
    const before = await seriesOf(series.id)
    expectProblem(await patch(B, `/planning/series/${series.id}`, { name: "B's" }), 403)
    expectProblem(await patch(B, `/planning/series/${series.id}/occurrences/${first}`, { name: "B's" }), 403)
    expectProblem(
      await patch(B, `/planning/series/${series.id}/occurrences/${first}?scope=following`, { name: "B's" }),
      403
    )
    expectProblem(await B.delete(`/planning/series/${series.id}/occurrences/${second}`), 403)
    expectProblem(await B.delete(`/planning/series/${series.id}/occurrences/${first}?scope=following`), 403)
    expectProblem(await B.delete(`/planning/series/${series.id}`), 403)
    expect(await seriesOf(series.id)).toEqual(before)
    expectStatus(await A.delete(`/planning/series/${series.id}`), 204)
  })

  it("an admin may hand a session or a series over, and change nothing else of it", async () => {
    const { a, b, A } = await actors()
    const session = (await A.post("/planning/sessions", { name: "A's", creneau: ahead(), duree: 30 }))
      .body as SessionDto
    expectProblem(await patch(club().admin, `/planning/sessions/${session.id}`, { name: "Admin's" }), 403)
    expectProblem(await patch(club().admin, `/planning/sessions/${session.id}`, { coachId: b, name: "Admin's" }), 403)
    expectStatus(await patch(club().admin, `/planning/sessions/${session.id}`, { coachId: b }), 200)
    expect(await readSession(club(), session.id)).toMatchObject({ coachId: b, name: "A's" })
    const series = await weekly(A, [])
    expectProblem(await patch(club().admin, `/planning/series/${series.id}`, { name: "Admin's" }), 403)
    expectStatus(await patch(club().admin, `/planning/series/${series.id}`, { coachId: b }), 200)
    expect((await seriesOf(series.id)).coachId).toBe(b)
    expectProblem(await club().admin.delete(`/planning/series/${series.id}`), 403)
    expect(a).not.toBe(b)
  })

  it("a session without a coach is any coach's: B may act on it, and take it", async () => {
    const { b, B, athleteId } = await actors()
    const session = await createSession(club(), { creneau: ahead(), duree: 30, athleteIds: [athleteId] })
    expect(session.coachId).toBeNull()
    expectStatus(await B.put(`/attendance/athletes/${athleteId}/replies/${session.id}`, { answer: "yes" }), 200)
    expectStatus(await B.put(`/attendance/sessions/${session.id}/settings`, { capacity: 3 }), 200)
    expectStatus(await patch(B, `/planning/sessions/${session.id}`, { coachId: b }), 200)
    expect(await readSession(club(), session.id)).toMatchObject({ coachId: b })
  })

  describe("the seed's own session endpoints keep the seed's rule: any coach", () => {
    it("coach B updates and deletes A's session through PUT /session/update and DELETE /session/delete", async () => {
      const { a, B } = await actors()
      const session = await createSession(club(), { creneau: ahead(), duree: 30, coachId: a })
      expectStatus(await B.put(`/session/update/${session.id}`, { duree: 45 }), 204)
      expectStatus(await B.delete(`/session/delete/${session.id}`), 200)
    })
  })
}
