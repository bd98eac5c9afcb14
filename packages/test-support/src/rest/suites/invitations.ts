import { describe, expect, it } from "vitest"
import { expectProblem, expectStatus } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import {
  createAthlete,
  createGroup,
  createSession,
  createUser,
  endMembership,
  linkGuardian,
  startMembership,
  tokenOf,
  unique
} from "../records.ts"

/**
 * Issue 41's sessions open to a group, on any harness, through the REST endpoints alone (groups,
 * memberships and guardians made by `/groups`, `/memberships` and `/guardians`): a late joiner and a
 * leaver between occurrences of a series, a coach of a group above, who is invited, an athlete's
 * sessions, and the feeds of an athlete and of a guardian.
 */
export const invitationEndpoints = (club: () => Club) => {
  describe("sessions open to a group (issue 41)", () => {
    /** Four weekly days, 18:00, from three weeks ahead (within the series horizon, replies open). */
    const start = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10)
    const week = (n: number) =>
      new Date(Date.parse(`${start}T00:00:00Z`) + n * 7 * 86_400_000).toISOString().slice(0, 10)

    /** A weekly series of the group: four occurrences from `week(0)`; answers its occurrences' sessions. */
    const weekly = async (groupe: string) => {
      const reply = await club().coach.post("/planning/series", {
        name: `${groupe} weekly`,
        groupe,
        coachId: club().coachId,
        duree: 60,
        start: `${week(0)}T18:00:00`,
        rrule: "FREQ=WEEKLY;COUNT=4",
        athleteIds: []
      })
      expectStatus(reply, 201)
      return (reply.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences.map((o) => o.sessionId)
    }
    const reply = (athleteId: number, sessionId: number, answer: string, scope = "one") =>
      club().coach.put(`/attendance/athletes/${athleteId}/replies/${sessionId}?scope=${scope}`, { answer })
    const states = async (sessionId: number) =>
      ((await club().athlete.get(`/attendance/sessions/${sessionId}/replies`)).body as {
        replies: ReadonlyArray<{ athleteId: number; state: string }>
      }).replies.map((r) => [r.athleteId, r.state])

    it(
      "a late joiner is invited to the next occurrences only; a leaver keeps its replies and is not invited after its last day",
      async () => {
        const name = unique("U12")
        const u12 = (await createGroup(club(), { name })).id
        const [first, second, third, fourth] = await weekly(name)
        const late = (await createAthlete(club())).id
        const leaver = (await createAthlete(club())).id
        const leaving = (await startMembership(club(), u12, leaver, "2020-01-01")).id
        expectStatus(await reply(leaver, first!, "yes", "following"), 200)
        await startMembership(club(), u12, late, week(1))
        expectProblem(await reply(late, first!, "yes"), 400, /is not an athlete of session/u)
        const written = await reply(late, second!, "yes", "following")
        expectStatus(written, 200)
        expect((written.body as ReadonlyArray<{ sessionId: number }>).map((r) => r.sessionId)).toEqual([
          second,
          third,
          fourth
        ])
        await endMembership(club(), leaving, week(1))
        expect(await states(fourth!)).toEqual([[leaver, "confirmed"], [late, "confirmed"]])
        expectProblem(await reply(leaver, third!, "no"), 400)
        const invited = (await club().athlete.get(`/attendance/sessions/${third!}/invited`)).body as {
          items: ReadonlyArray<{ athleteId: number; how: string; groupName: string | null }>
        }
        expect(invited.items).toEqual([{ athleteId: late, how: "member", groupId: u12, groupName: name }])
        const sessions =
          (await club().athlete.get(`/attendance/athletes/${late}/sessions?from=${week(0)}&to=${week(3)}`))
            .body as { items: ReadonlyArray<{ sessionId: number; how: string }> }
        expect(sessions.items.map((s) => [s.sessionId, s.how])).toEqual([
          [second, "member"],
          [third, "member"],
          [fourth, "member"]
        ])
      }
    )

    it("a coach of the group above acts on the group's sessions; another coach gets 403", async () => {
      const coachRecord = async () =>
        ((await club().admin.post("/coaches/create", { name: unique("Coach") })).body as {
          id: number
        }).id
      const sectionCoach = await coachRecord()
      const otherCoach = await coachRecord()
      const asCoach = async (coachId: number) => {
        const user = await createUser(club(), { role: "COACH", coachId })
        return club().withToken(await tokenOf(club(), user.name, user.password))
      }
      const section = (await createGroup(club(), { name: unique("Youth"), coachIds: [sectionCoach] })).id
      const name = unique("U10")
      await createGroup(club(), { name, parentId: section })
      await createGroup(club(), { name: unique("Seniors"), coachIds: [otherCoach] })
      const session = await createSession(club(), {
        creneau: "2099-05-04T18:00:00",
        groupe: name,
        coachId: club().coachId
      })
      const bySection = await asCoach(sectionCoach)
      const byOther = await asCoach(otherCoach)
      expectStatus(await bySection.put(`/attendance/sessions/${session.id}/settings`, { capacity: 8 }), 200)
      expectProblem(await byOther.put(`/attendance/sessions/${session.id}/settings`, { capacity: 1 }), 403)
      expectStatus(
        await bySection.send("PATCH", `/planning/sessions/${session.id}`, { json: { name: "U10 Tuesday" } }),
        200
      )
      expectProblem(await byOther.send("PATCH", `/planning/sessions/${session.id}`, { json: { name: "Taken" } }), 403)
      const settings = (await club().athlete.get(`/attendance/sessions/${session.id}/replies`)).body as {
        capacity: number
      }
      expect(settings.capacity).toBe(8)
    })

    it(
      "a guardian's feed holds its two children's sessions, by membership too; an athlete's feed its groups'",
      async () => {
        const name = unique("U8")
        const u8 = (await createGroup(club(), { name })).id
        const child1 = (await createAthlete(club(), { name: "Child one" })).id
        const child2 = (await createAthlete(club(), { name: "Child two" })).id
        await startMembership(club(), u8, child1, "2099-06-01")
        const groupSession = await createSession(club(), { creneau: "2099-06-08T17:00:00", duree: 60, groupe: name })
        const ownSession = await createSession(club(), {
          creneau: "2099-06-09T17:00:00",
          duree: 60,
          athleteIds: [child2]
        })
        const parent = await createUser(club(), { role: "ATHLETE" })
        await linkGuardian(club(), parent.id, child1)
        await linkGuardian(club(), parent.id, child2)
        const caller = club().withToken(await tokenOf(club(), parent.name, parent.password))
        const issued = (await caller.post("/planning/feed-token")).body as { token: string }
        const guardianFeed = await club().anonymous.get(`/planning/feeds/${issued.token}/guardian.ics`)
        expectStatus(guardianFeed, 200)
        expect(guardianFeed.text).toContain(`UID:session-${groupSession.id}@club-training-service`)
        expect(guardianFeed.text).toContain(`UID:session-${ownSession.id}@club-training-service`)
        const athleteFeed = await club().anonymous.get(`/planning/feeds/${issued.token}/athlete/${child1}.ics`)
        expect(athleteFeed.text).toContain(`UID:session-${groupSession.id}@club-training-service`)
        expect(athleteFeed.text).not.toContain(`UID:session-${ownSession.id}@club-training-service`)
      }
    )
  })
}
