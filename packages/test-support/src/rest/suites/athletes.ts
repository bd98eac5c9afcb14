import { describe, expect, it } from "vitest"
import { expectEmpty, expectJson, expectProblem } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import {
  allAthletes,
  athleteDto,
  byId,
  createActivity,
  createAthlete,
  createSession,
  expectGeneratedIdsAvoid,
  idAhead,
  missingId,
  readSession,
  sessionsOfAthlete,
  sorted,
  unique
} from "../records.ts"

/** The seed's athlete endpoints, and the schedule queries under /athletes, on any harness. */
export const athleteEndpoints = (club: () => Club) => {
  const everyRole = () => [club().admin, club().coach, club().athlete]
  const sessionIdsOf = async (athleteId: number) => (await sessionsOfAthlete(club(), athleteId)).map((s) => s.id)

  describe("POST /athletes/create (Admin)", () => {
    it("answers 201 with the AthleteDTO: name, categorie, niveau used; groupes, sessionIds and userId ignored ([], [], null)", async () => {
      const name = unique("Mia")
      const reply = await club().admin.post("/athletes/create", {
        name,
        categorie: "U18",
        niveau: "Regional",
        groupes: ["sprint"],
        sessionIds: [1],
        userId: 42
      })
      expect(reply.status).toBe(201)
      const id = (reply.body as { id: number }).id
      expectJson(reply, 201, athleteDto(id, name, "U18", "Regional"))
      expectJson(await club().admin.get(`/athletes/${id}`), 200, athleteDto(id, name, "U18", "Regional"))
    })

    it("copies a supplied id that no athlete has onto the new record; later generated ids do not collide with it", async () => {
      const supplied = idAhead(await allAthletes(club()))
      expectJson(
        await club().admin.post("/athletes/create", { id: supplied, name: "Supplied" }),
        201,
        athleteDto(supplied, "Supplied", null, null)
      )
      await expectGeneratedIdsAvoid(supplied, () => createAthlete(club()))
      expectJson(await club().admin.get(`/athletes/${supplied}`), 200, athleteDto(supplied, "Supplied", null, null))
    })

    it("refuses a supplied id already in use with 409 problem+json, and overwrites nothing", async () => {
      const existing = await createAthlete(club(), { name: "Original" })
      expectProblem(await club().admin.post("/athletes/create", { id: existing.id, name: "Usurper" }), 409, {
        detail: `Athlete id ${existing.id} is already in use`
      })
      expectJson(await club().admin.get(`/athletes/${existing.id}`), 200, existing)
    })
  })

  describe("POST /athletes/all (Admin, Coach or Athlete)", () => {
    it("answers 200 with an array of AthleteDTO, the same to every role", async () => {
      const created = await createAthlete(club(), { name: unique("Listed") })
      const replies = await Promise.all(everyRole().map((caller) => caller.post("/athletes/all")))
      for (const reply of replies) expectJson(reply, 200, expect.arrayContaining([created]))
      expect(replies[1]!.body).toEqual(replies[0]!.body)
      expect(replies[2]!.body).toEqual(replies[0]!.body)
      for (const athlete of replies[0]!.body as Array<Record<string, unknown>>) {
        expect(athlete).toMatchObject({ groupes: [], sessionIds: [], userId: null })
      }
    })
  })

  describe("GET /athletes/{id} (Admin, Coach or Athlete)", () => {
    it("answers 200 with the AthleteDTO", async () => {
      const created = await createAthlete(club(), { name: "Read", categorie: "Cadet", niveau: "C" })
      for (const caller of everyRole()) {
        expectJson(await caller.get(`/athletes/${created.id}`), 200, athleteDto(created.id, "Read", "Cadet", "C"))
      }
    })

    it("answers 404 with an empty body when the athlete does not exist", async () => {
      expectEmpty(await club().coach.get(`/athletes/${missingId}`), 404)
    })
  })

  describe("PUT /athletes/{id} (ADMIN, or the athlete's own user)", () => {
    it("answers 200 with the AthleteDTO, replacing name, categorie and niveau", async () => {
      const created = await createAthlete(club(), { name: "Old", categorie: "Old", niveau: "Old" })
      const replaced = athleteDto(created.id, "New", "Senior", "National")
      expectJson(
        await club().admin.put(`/athletes/${created.id}`, { name: "New", categorie: "Senior", niveau: "National" }),
        200,
        replaced
      )
      expectJson(await club().admin.get(`/athletes/${created.id}`), 200, replaced)
    })

    it("replaces the athlete's sessions by the sessions with the ids of sessionIds, when present", async () => {
      const athlete = await createAthlete(club())
      const [first, second, third] = [
        await createSession(club(), { athleteIds: [athlete.id] }),
        await createSession(club()),
        await createSession(club())
      ]
      expectJson(
        await club().admin.put(`/athletes/${athlete.id}`, { name: "Moved", sessionIds: [second.id, third.id] }),
        200,
        athleteDto(athlete.id, "Moved", null, null)
      )
      expect(sorted(await sessionIdsOf(athlete.id))).toEqual([second.id, third.id])
      expect((await readSession(club(), first.id)).athleteIds).toEqual([])
      expect((await readSession(club(), second.id)).athleteIds).toEqual([athlete.id])
    })

    it("keeps the athlete's sessions when sessionIds is absent, and removes them all for an empty sessionIds", async () => {
      const athlete = await createAthlete(club())
      const session = await createSession(club(), { athleteIds: [athlete.id] })
      expect((await club().admin.put(`/athletes/${athlete.id}`, { name: "Same sessions" })).status).toBe(200)
      expect(await sessionIdsOf(athlete.id)).toEqual([session.id])
      const emptied = await club().admin.put(`/athletes/${athlete.id}`, { name: "No sessions", sessionIds: [] })
      expect(emptied.status).toBe(200)
      expect(await sessionsOfAthlete(club(), athlete.id)).toEqual([])
    })

    it("lets the athlete linked to the caller update their own record", async () => {
      const reply = await club().athlete.put(`/athletes/${club().athleteId}`, {
        name: "Alex Athlete",
        categorie: "Senior",
        niveau: "A+"
      })
      expectJson(reply, 200, athleteDto(club().athleteId, "Alex Athlete", "Senior", "A+"))
    })

    it("answers 204 with an empty body when the athlete does not exist", async () => {
      expectEmpty(await club().admin.put(`/athletes/${missingId}`, { name: "Nobody" }), 204)
      expectEmpty(await club().admin.get(`/athletes/${missingId}`), 404)
    })

    it("answers 204 with an empty body when a session id is not found, and changes nothing", async () => {
      const athlete = await createAthlete(club(), { name: "Unchanged", categorie: "K", niveau: "L" })
      const session = await createSession(club(), { athleteIds: [athlete.id] })
      const other = await createSession(club())
      expectEmpty(
        await club().admin.put(`/athletes/${athlete.id}`, { name: "Changed?", sessionIds: [other.id, missingId] }),
        204
      )
      expectJson(await club().admin.get(`/athletes/${athlete.id}`), 200, athlete)
      expect(await sessionIdsOf(athlete.id)).toEqual([session.id])
    })

    it("answers 204 with an empty body for input it cannot decode, and changes nothing", async () => {
      const athlete = await createAthlete(club(), { name: "Kept" })
      expectEmpty(await club().admin.put(`/athletes/${athlete.id}`, { name: 5 }), 204)
      expectJson(await club().admin.get(`/athletes/${athlete.id}`), 200, athlete)
    })
  })

  describe("DELETE /athletes/{id} (Admin)", () => {
    it("answers 204 with an empty body, and the athlete is gone", async () => {
      const athlete = await createAthlete(club())
      expectEmpty(await club().admin.delete(`/athletes/${athlete.id}`), 204)
      expectEmpty(await club().admin.get(`/athletes/${athlete.id}`), 404)
      expect((await allAthletes(club())).map((a) => a.id)).not.toContain(athlete.id)
      expectEmpty(await club().admin.delete(`/athletes/${athlete.id}`), 404)
    })

    it("removes the athlete's session memberships; the sessions stay", async () => {
      const [leaving, staying] = [await createAthlete(club()), await createAthlete(club())]
      const session = await createSession(club(), { athleteIds: [leaving.id, staying.id] })
      expectEmpty(await club().admin.delete(`/athletes/${leaving.id}`), 204)
      expect((await readSession(club(), session.id)).athleteIds).toEqual([staying.id])
    })

    it("clears the user link to the athlete: a later athlete with the same id is not that user's record", async () => {
      const athlete = await createAthlete(club(), { name: "Linked, then deleted" })
      const [name, password] = [unique("linked"), unique("linked-password")]
      club().passwords.add(password)
      await club().admin.post("/users/create", { name, role: "ATHLETE", password, athleteId: athlete.id })
      const token = ((await club().anonymous.post("/auth/login", { name, password })).body as { token: string }).token
      expectEmpty(await club().admin.delete(`/athletes/${athlete.id}`), 204)
      expect((await club().admin.post("/athletes/create", { id: athlete.id, name: "Newcomer" })).status).toBe(201)
      expectProblem(await club().withToken(token).put(`/athletes/${athlete.id}`, { name: "Not mine" }), 403)
      expectJson(await club().admin.get(`/athletes/${athlete.id}`), 200, athleteDto(athlete.id, "Newcomer", null, null))
    })

    it("answers 404 with an empty body when the athlete does not exist", async () => {
      expectEmpty(await club().admin.delete(`/athletes/${missingId}`), 404)
    })
  })

  describe("session and activity queries under /athletes (any authenticated caller)", () => {
    it("GET /athletes/athlete/{id}/session: 200, the session summaries of the sessions that contain the athlete, in id order", async () => {
      const athlete = await createAthlete(club())
      const [mine, alsoMine] = [
        await createSession(club(), { name: "Mine", athleteIds: [athlete.id] }),
        await createSession(club(), { name: "Also mine", athleteIds: [athlete.id, club().athleteId] })
      ]
      await createSession(club(), { name: "Not mine", athleteIds: [club().athleteId] })
      for (const caller of everyRole()) {
        expectJson(await caller.get(`/athletes/athlete/${athlete.id}/session`), 200, [
          { id: mine.id, name: "Mine" },
          { id: alsoMine.id, name: "Also mine" }
        ])
      }
    })

    it("GET /athletes/athlete/{id}/session: 200 and an empty array when the athlete does not exist", async () => {
      expectJson(await club().athlete.get(`/athletes/athlete/${missingId}/session`), 200, [])
    })

    it("GET /athletes/athletes/session: 200, the session summaries of all sessions", async () => {
      const session = await createSession(club(), { name: unique("Everyone") })
      const sessions = (await club().coach.get("/session/all")).body as Array<{ id: number; name: string }>
      for (const caller of everyRole()) {
        const reply = await caller.get("/athletes/athletes/session")
        expectJson(reply, 200, expect.arrayContaining([{ id: session.id, name: session.name }]))
        expect(byId(reply.body as Array<{ id: number }>)).toEqual(byId(sessions).map(({ id, name }) => ({ id, name })))
      }
    })

    it("GET /athletes/athletes/session/{id}/activities: 200, the activity summaries of the session", async () => {
      const session = await createSession(club())
      const warmUp = await createActivity(club(), session.id, { name: "Warm-up" })
      const drills = await createActivity(club(), session.id, { name: "Drills" })
      for (const caller of everyRole()) {
        const reply = await caller.get(`/athletes/athletes/session/${session.id}/activities`)
        expectJson(reply, 200, expect.any(Array))
        expect(byId(reply.body as Array<{ id: number }>)).toEqual(
          byId([{ id: warmUp, name: "Warm-up" }, { id: drills, name: "Drills" }])
        )
      }
    })

    it("GET /athletes/athletes/session/{id}/activities: 200 and an empty array when the session does not exist", async () => {
      expectJson(await club().admin.get(`/athletes/athletes/session/${missingId}/activities`), 200, [])
    })

    describe("date ranges: {date} is an ISO calendar date, compared with the start of that day", () => {
      const dated = async () => {
        const athlete = await createAthlete(club())
        const at = async (name: string, creneau: string | null) => ({
          id: (await createSession(club(), { name, creneau, athleteIds: [athlete.id] })).id,
          name
        })
        const sessions = {
          dayBeforeLate: await at("2026-03-09 23:59:59", "2026-03-09T23:59:59"),
          midnight: await at("2026-03-10 00:00:00", "2026-03-10T00:00:00"),
          justAfterMidnight: await at("2026-03-10 00:00:01", "2026-03-10T00:00:01"),
          evening: await at("2026-03-11 18:30:00", "2026-03-11T18:30:00"),
          lastSecond: await at("2026-03-11 23:59:59", "2026-03-11T23:59:59"),
          nextMidnight: await at("2026-03-12 00:00:00", "2026-03-12T00:00:00"),
          undated: await at("no creneau", null)
        }
        // Another athlete's session in the range is never listed.
        await createSession(club(), {
          name: "someone else",
          creneau: "2026-03-11T10:00:00",
          athleteIds: [club().athleteId]
        })
        return { athlete, sessions }
      }

      it("GET /athletes/athletes/{id}/session/after/{date}: 200, the athlete's sessions whose creneau is strictly after {date}", async () => {
        const { athlete, sessions: s } = await dated()
        const reply = await club().athlete.get(`/athletes/athletes/${athlete.id}/session/after/2026-03-10`)
        expectJson(reply, 200, expect.any(Array))
        expect(byId(reply.body as Array<{ id: number }>)).toEqual(
          byId([s.justAfterMidnight, s.evening, s.lastSecond, s.nextMidnight])
        )
        expectJson(await club().athlete.get(`/athletes/athletes/${athlete.id}/session/after/2026-03-12`), 200, [])
      })

      it("GET /athletes/athletes/{id}/session/after/{date}: 200 and an empty array when the athlete does not exist", async () => {
        expectJson(await club().coach.get(`/athletes/athletes/${missingId}/session/after/2000-01-01`), 200, [])
      })

      it("GET /athletes/athletes/{id}/session/between/{startDate}/{endDate}: 200, the sessions strictly after {startDate} and strictly before {endDate}", async () => {
        const { athlete, sessions: s } = await dated()
        const reply = await club().coach.get(`/athletes/athletes/${athlete.id}/session/between/2026-03-10/2026-03-12`)
        expectJson(reply, 200, expect.any(Array))
        expect(byId(reply.body as Array<{ id: number }>)).toEqual(byId([s.justAfterMidnight, s.evening, s.lastSecond]))
        expectJson(
          await club().coach.get(`/athletes/athletes/${athlete.id}/session/between/2026-03-11/2026-03-11`),
          200,
          []
        )
      })

      it("GET /athletes/athletes/{id}/session/between/{startDate}/{endDate}: 200 and an empty array when the athlete does not exist", async () => {
        expectJson(
          await club().admin.get(`/athletes/athletes/${missingId}/session/between/2000-01-01/2100-01-01`),
          200,
          []
        )
      })

      it("answers a date that does not parse with 400 problem+json naming the parameter", async () => {
        const id = club().athleteId
        const [after, impossible, start, end] = await Promise.all([
          club().athlete.get(`/athletes/athletes/${id}/session/after/2026-02-30`),
          club().athlete.get(`/athletes/athletes/${id}/session/after/2026-13-45`),
          club().athlete.get(`/athletes/athletes/${id}/session/between/10-03-2026/2026-03-12`),
          club().athlete.get(`/athletes/athletes/${id}/session/between/2026-03-10/tomorrow`)
        ])
        expectProblem(after, 400, { detail: /^date: / })
        expectProblem(impossible, 400, { detail: /^date: / })
        expectProblem(start, 400, { detail: /^startDate: / })
        expectProblem(end, 400, { detail: /^endDate: / })
      })
    })
  })
}
