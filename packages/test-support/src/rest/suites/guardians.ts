import { describe, expect, it } from "vitest"
import { expectJson, expectProblem, expectStatus } from "../../expectations.ts"
import type { Caller, Club } from "../Club.ts"
import { createAthlete, createSession, createUser, missingId, tokenOf } from "../records.ts"

interface GuardianshipDto {
  readonly userId: number
  readonly athleteId: number
}

interface ReplyDto {
  readonly sessionId: number
  readonly athleteId: number
  readonly answer: string
  readonly state: string
}

/** Far enough ahead that replies are open whenever the tests run. */
const future = "2099-06-01T18:00:00"

/** The most athletes one user guards (GuardianshipBounds.athletesPerGuardian, docs/membership.md). */
const athletesPerGuardian = 20

/** Issue 41's guardians under `/guardians`, and what the link gives (docs/membership.md, "Guardians"), on any harness. */
export const guardianEndpoints = (club: () => Club) => {
  /**
   * A guardian as a parent is: an ATHLETE user without an athlete record of its own (the record its
   * creation made is deleted), logged in.
   */
  const guardianUser = async () => {
    const user = await createUser(club(), { role: "ATHLETE" })
    expectStatus(await club().admin.delete(`/athletes/${user.athleteId}`), 204)
    const caller = club().withToken(await tokenOf(club(), user.name, user.password))
    return { id: user.id, caller }
  }
  const link = (userId: number, athleteId: number) => club().admin.put(`/guardians/${userId}/athletes/${athleteId}`)
  const unlink = (userId: number, athleteId: number) =>
    club().admin.delete(`/guardians/${userId}/athletes/${athleteId}`)
  const reply = (caller: Caller, athleteId: number, sessionId: number, answer: string, query = "") =>
    caller.put(`/attendance/athletes/${athleteId}/replies/${sessionId}${query}`, { answer })

  describe("PUT, DELETE and GET /guardians (Admin; a user reads its own)", () => {
    it("links a user to athletes (again: the same answer), lists both sides by id, and unlinks", async () => {
      const guardian = await guardianUser()
      const first = (await createAthlete(club(), { name: "First child" })).id
      const second = (await createAthlete(club(), { name: "Second child" })).id
      expectJson(await link(guardian.id, second), 200, { userId: guardian.id, athleteId: second })
      expectJson(await link(guardian.id, first), 200, { userId: guardian.id, athleteId: first })
      expectJson(await link(guardian.id, first), 200, { userId: guardian.id, athleteId: first })
      const both = [first, second].sort((a, b) => a - b).map((athleteId) => ({ userId: guardian.id, athleteId }))
      expectJson(await club().admin.get(`/guardians/${guardian.id}/athletes`), 200, both)
      // The user itself reads its own links; another user may not.
      expectJson(await guardian.caller.get(`/guardians/${guardian.id}/athletes`), 200, both)
      expectProblem(await club().athlete.get(`/guardians/${guardian.id}/athletes`), 403)
      expectJson(await club().admin.get(`/guardians?athleteId=${first}`), 200, [{
        userId: guardian.id,
        athleteId: first
      }])
      expectProblem(await guardian.caller.get(`/guardians?athleteId=${first}`), 403)

      expectStatus(await unlink(guardian.id, first), 204)
      expectProblem(
        await unlink(guardian.id, first),
        404,
        `Guardianship not found with id user ${guardian.id}, athlete ${first}`
      )
      expectJson(await club().admin.get(`/guardians/${guardian.id}/athletes`), 200, [{
        userId: guardian.id,
        athleteId: second
      }])
      expectJson(await club().admin.get(`/guardians?athleteId=${first}`), 200, [])
    })

    it("answers 404 naming the user or the athlete that is not there (the user first)", async () => {
      const athleteId = (await createAthlete(club())).id
      expectProblem(await link(missingId, missingId), 404, `User not found with id ${missingId}`)
      expectProblem(await link(missingId, athleteId), 404, `User not found with id ${missingId}`)
      expectProblem(await link(club().user.ATHLETE.id, missingId), 404, `Athlete not found with id ${missingId}`)
      expectProblem(
        await club().admin.get(`/guardians/${missingId}/athletes`),
        404,
        `User not found with id ${missingId}`
      )
      expectProblem(
        await club().admin.get(`/guardians?athleteId=${missingId}`),
        404,
        `Athlete not found with id ${missingId}`
      )
    })

    it(`a user guards at most ${athletesPerGuardian} athletes: one more is 409, and the list pages`, async () => {
      const guardian = await guardianUser()
      for (let n = 0; n < athletesPerGuardian; n++) {
        expectStatus(await link(guardian.id, (await createAthlete(club(), { name: `Child ${n}` })).id), 200)
      }
      const oneMore = (await createAthlete(club(), { name: "One child too many" })).id
      expectProblem(
        await link(guardian.id, oneMore),
        409,
        `User ${guardian.id} guards ${athletesPerGuardian} athletes already, the most one user may guard; unlink one first`
      )
      expectJson(await club().admin.get(`/guardians?athleteId=${oneMore}`), 200, [])
      const page = await club().admin.get(`/guardians/${guardian.id}/athletes?limit=5`)
      expectStatus(page, 200)
      expect(page.body as ReadonlyArray<GuardianshipDto>).toHaveLength(5)
      expect(page.headers.get("link")).toMatch(/rel="next"/u)
    })

    it("deleting an athlete or a user removes its links", async () => {
      const guardian = await guardianUser()
      const child = (await createAthlete(club())).id
      const stays = (await createAthlete(club())).id
      expectStatus(await link(guardian.id, child), 200)
      expectStatus(await link(guardian.id, stays), 200)
      expectStatus(await club().admin.delete(`/athletes/${child}`), 204)
      expectJson(await club().admin.get(`/guardians/${guardian.id}/athletes`), 200, [{
        userId: guardian.id,
        athleteId: stays
      }])
      expectStatus(await club().admin.delete(`/users/delete/${guardian.id}`), 204)
      expectJson(await club().admin.get(`/guardians?athleteId=${stays}`), 200, [])
    })
  })

  describe("what the link gives: replying for the athlete, reading its schedule; nothing else", () => {
    it("a guardian (ATHLETE, no athlete record) replies yes for its two children, not for a third; unlinked: 403 at once", async () => {
      const guardian = await guardianUser()
      const [first, second, third] = [
        (await createAthlete(club(), { name: "Ann" })).id,
        (await createAthlete(club(), { name: "Ben" })).id,
        (await createAthlete(club(), { name: "Cat" })).id
      ]
      expectStatus(await link(guardian.id, first!), 200)
      expectStatus(await link(guardian.id, second!), 200)
      const me = (await guardian.caller.get("/auth/me")).body as { athleteId: unknown; guardedAthleteIds: unknown }
      expect(me).toMatchObject({ athleteId: null, guardedAthleteIds: [first, second].sort((a, b) => a! - b!) })

      const session = await createSession(club(), {
        creneau: future,
        coachId: club().coachId,
        athleteIds: [first, second, third]
      })
      for (const athleteId of [first!, second!]) {
        const written = await reply(guardian.caller, athleteId, session.id, "yes")
        expectStatus(written, 200)
        expect(written.body as ReadonlyArray<ReplyDto>).toMatchObject([{
          sessionId: session.id,
          athleteId,
          answer: "yes",
          state: "confirmed"
        }])
      }
      expectProblem(await reply(guardian.caller, third!, session.id, "yes"), 403, "Your role may not attendance.reply")
      const roster = (await club().coach.get(`/attendance/sessions/${session.id}/replies`)).body as {
        replies: ReadonlyArray<ReplyDto>
      }
      expect(roster.replies.map((r) => r.athleteId).sort((a, b) => a - b)).toEqual(
        [first!, second!].sort((a, b) => a - b)
      )

      // Nothing else: not the athlete's record, not its figures; its schedule, as every user reads it.
      expectProblem(await guardian.caller.put(`/athletes/${first}`, { name: "Renamed by a parent" }), 403)
      expectProblem(
        await guardian.caller.get(`/attendance/athletes/${first}/figures?from=2026-01-01&to=2026-12-31`),
        403
      )
      expectStatus(await guardian.caller.get(`/athletes/athlete/${first}/session`), 200)

      expectStatus(await unlink(guardian.id, first!), 204)
      expectProblem(await reply(guardian.caller, first!, session.id, "no"), 403, "Your role may not attendance.reply")
      expectStatus(await reply(guardian.caller, second!, session.id, "no"), 200)
      expect(((await guardian.caller.get("/auth/me")).body as { guardedAthleteIds: unknown }).guardedAthleteIds)
        .toEqual([second])
    })

    it("with scope=following, a guardian replies for its child to an occurrence of a series and every later one", async () => {
      const guardian = await guardianUser()
      const child = (await createAthlete(club(), { name: "Dan" })).id
      expectStatus(await link(guardian.id, child), 200)
      const series = await club().coach.post("/planning/series", {
        name: "Weekly with a guardian",
        coachId: club().coachId,
        athleteIds: [child],
        duree: 60,
        // Within the club's horizon, where occurrences exist, and still ahead.
        start: `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T19:00:00`,
        rrule: "FREQ=WEEKLY;COUNT=3"
      })
      expect(series.status, series.text).toBe(201)
      const [, second, third] = (series.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences
        .map((o) => o.sessionId)
      const written = await reply(guardian.caller, child, second!, "yes", "?scope=following")
      expectStatus(written, 200)
      expect((written.body as ReadonlyArray<ReplyDto>).map((r) => [r.sessionId, r.athleteId, r.state])).toEqual([
        [second, child, "confirmed"],
        [third, child, "confirmed"]
      ])
    })

    it("a guardian of any role: an ADMIN, whose role alone may not reply, replies for the athlete it guards", async () => {
      const child = (await createAthlete(club(), { name: "Eve" })).id
      const session = await createSession(club(), { creneau: future, coachId: club().coachId, athleteIds: [child] })
      expectProblem(await reply(club().admin, child, session.id, "maybe"), 403, "Your role may not attendance.reply")
      expectStatus(await link(club().user.ADMIN.id, child), 200)
      expectStatus(await reply(club().admin, child, session.id, "maybe"), 200)
      expectStatus(await unlink(club().user.ADMIN.id, child), 204)
      expectProblem(await reply(club().admin, child, session.id, "no"), 403, "Your role may not attendance.reply")
    })

    it("a guardian of one athlete is refused for any other, malformed id included, before the body is read", async () => {
      const guardian = await guardianUser()
      const child = (await createAthlete(club())).id
      expectStatus(await link(guardian.id, child), 200)
      const other = (await createAthlete(club())).id
      expectProblem(
        await guardian.caller.send("PUT", `/attendance/athletes/${other}/replies/${missingId}`, {
          body: "{\"answer\":"
        }),
        403,
        "Your role may not attendance.reply"
      )
      // Its own child, an unknown session: past the gate, the session is not found.
      expectProblem(await reply(guardian.caller, child, missingId, "yes"), 404)
    })
  })
}
