import { describe, expect, it } from "vitest"
import { expectEmpty, expectJson, expectProblem, expectText } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import {
  allActivities,
  allSessions,
  createActivity,
  createAthlete,
  createCoach,
  createSession,
  expectGeneratedIdsAvoid,
  idAhead,
  missingId,
  readSession,
  sessionDto,
  type SessionDto,
  sessionsOfAthlete,
  sorted,
  unique
} from "../records.ts"

/** The seed's session endpoints, on any harness. */
export const sessionEndpoints = (club: () => Club) => {
  /** The session as `GET /session/{id}` answers it now. */
  const expectSession = async (id: number, expected: SessionDto) =>
    expectJson(await club().coach.get(`/session/${id}`), 200, expected)
  const update = (id: number, body: Record<string, unknown>) => club().coach.put(`/session/update/${id}`, body)
  const notFound = (id: number) => `Session not found with id ${id}`

  describe("POST /session/create (Coach)", () => {
    it("answers 201 with the SessionDTO, loading athletes from athleteIds and activities from activiteIds", async () => {
      const [a, b] = [await createAthlete(club()), await createAthlete(club())]
      const coach = await createCoach(club())
      const elsewhere = await createSession(club())
      const activity = await createActivity(club(), elsewhere.id)
      const fields = {
        name: unique("Track night"),
        isRecurrent: true,
        creneau: "2026-11-21T18:30:00",
        duree: 90,
        groupe: "Sprinters",
        coachId: coach.id,
        athleteIds: [a.id, b.id],
        activiteIds: [activity]
      }
      const reply = await club().coach.post("/session/create", fields)
      expect(reply.status).toBe(201)
      const expected = { id: (reply.body as { id: number }).id, ...fields }
      expectJson(reply, 201, expected)
      await expectSession(expected.id, expected)
    })

    it("moves the listed activities into the new session (an activity belongs to one session)", async () => {
      const from = await createSession(club())
      const activity = await createActivity(club(), from.id, { name: unique("Mover") })
      const to = await createSession(club(), { activiteIds: [activity] })
      expect((await readSession(club(), from.id)).activiteIds).toEqual([])
      expect(to.activiteIds).toEqual([activity])
      expect((await club().coach.get(`/activite/${activity}`)).body).toMatchObject({ sessionId: to.id })
    })

    it("copies a supplied id that no session has onto the new session; later generated ids do not collide with it", async () => {
      const supplied = idAhead(await allSessions(club()))
      const reply = await club().coach.post("/session/create", { id: supplied, name: "Supplied" })
      expectJson(reply, 201, sessionDto(supplied, { name: "Supplied" }))
      await expectGeneratedIdsAvoid(supplied, () => createSession(club()))
    })

    it("answers 400, plain text failure message, for a supplied id already in use; nothing is overwritten", async () => {
      const existing = await createSession(club(), { name: "Original" })
      expectText(
        await club().coach.post("/session/create", { id: existing.id, name: "Usurper" }),
        400,
        new RegExp(`\\b${existing.id}\\b`, "u")
      )
      await expectSession(existing.id, existing)
    })

    it("answers 400, plain text failure message naming the unknown athlete ids; nothing is written", async () => {
      const athlete = await createAthlete(club())
      const before = await allSessions(club())
      const reply = await club().coach.post("/session/create", { name: "Ghosts", athleteIds: [athlete.id, missingId] })
      expectText(reply, 400, new RegExp(`athleteIds.*${missingId}`, "u"))
      expect(reply.text).not.toMatch(new RegExp(`\\b${athlete.id}\\b`, "u"))
      expect(await allSessions(club())).toEqual(before)
    })

    it("answers 400, plain text failure message naming the unknown activity ids; nothing is written or moved", async () => {
      const session = await createSession(club())
      const activity = await createActivity(club(), session.id)
      const before = await allSessions(club())
      const reply = await club().coach.post("/session/create", { name: "Ghosts", activiteIds: [activity, missingId] })
      expectText(reply, 400, new RegExp(`activiteIds.*${missingId}`, "u"))
      expect(await allSessions(club())).toEqual(before)
      expect((await club().coach.get(`/activite/${activity}`)).body).toMatchObject({ sessionId: session.id })
    })

    it("answers 400, plain text failure message naming an unknown coachId; nothing is written", async () => {
      const before = await allSessions(club())
      expectText(
        await club().coach.post("/session/create", { name: "Ghost coach", coachId: missingId }),
        400,
        new RegExp(`coachId.*${missingId}`, "u")
      )
      expect(await allSessions(club())).toEqual(before)
    })

    it("answers 400, plain text failure message naming the field, for input it cannot decode", async () => {
      expectText(await club().coach.post("/session/create", { duree: "long" }), 400, /^(.*; )?duree: /u)
      expectText(await club().coach.post("/session/create", { creneau: "tomorrow" }), 400, /^(.*; )?creneau: /u)
    })
  })

  describe("GET /session/all (Coach or Athlete)", () => {
    it("answers 200 with an array of SessionDTO", async () => {
      const session = await createSession(club(), { name: unique("Listed"), athleteIds: [club().athleteId] })
      const [coach, athlete] = await Promise.all([club().coach.get("/session/all"), club().athlete.get("/session/all")])
      expectJson(coach, 200, expect.arrayContaining([session]))
      expectJson(athlete, 200, coach.body)
    })

    it("answers every session exactly once, in id order, when the list is longer than one streamed batch", async () => {
      const created: Array<number> = []
      for (let wave = 0; wave < 12; wave++) {
        const sessions = await Promise.all(
          Array.from(
            { length: 100 },
            (_, i) => createSession(club(), { name: `Wave ${wave}/${i} "é"`, athleteIds: [club().athleteId] })
          )
        )
        created.push(...sessions.map((s) => s.id))
      }
      const reply = await club().athlete.get("/session/all")
      expect(reply.status).toBe(200)
      const ids = (reply.body as Array<{ id: number }>).map((s) => s.id)
      expect(ids).toEqual(sorted(ids))
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toEqual(expect.arrayContaining(created))
    })
  })

  describe("GET /session/{id} (Coach or Athlete)", () => {
    it("answers 200 with the SessionDTO", async () => {
      const session = await createSession(club(), { name: "Read", creneau: "2026-01-02T03:04:05", duree: 30 })
      await expectSession(session.id, session)
      expectJson(await club().athlete.get(`/session/${session.id}`), 200, session)
    })

    it("answers 404, plain text failure message 'Session not found with id N', when the session does not exist", async () => {
      expectText(await club().athlete.get(`/session/${missingId}`), 404, notFound(missingId))
    })
  })

  describe("DELETE /session/delete/{id} (Coach)", () => {
    it("answers 200, plain text 'Session deleted successfully', and the session is gone", async () => {
      const session = await createSession(club())
      expectText(await club().coach.delete(`/session/delete/${session.id}`), 200, "Session deleted successfully")
      expectText(await club().coach.get(`/session/${session.id}`), 404, notFound(session.id))
      expectText(await club().coach.delete(`/session/delete/${session.id}`), 404, notFound(session.id))
    })

    it("deletes the session's activities and its athlete memberships; the athletes stay", async () => {
      const athlete = await createAthlete(club())
      const session = await createSession(club(), { athleteIds: [athlete.id] })
      const activity = await createActivity(club(), session.id, { name: unique("Doomed") })
      expectText(await club().coach.delete(`/session/delete/${session.id}`), 200, "Session deleted successfully")
      expectEmpty(await club().coach.get(`/activite/${activity}`), 404)
      expect((await allActivities(club())).map((a) => a.sessionId)).not.toContain(session.id)
      expectJson(await club().coach.get(`/athletes/athletes/session/${session.id}/activities`), 200, [])
      expect(await sessionsOfAthlete(club(), athlete.id)).toEqual([])
      expectJson(await club().coach.get(`/athletes/${athlete.id}`), 200, athlete)
    })

    it("answers 404, plain text failure message 'Session not found with id N', when the session does not exist", async () => {
      expectText(await club().coach.delete(`/session/delete/${missingId}`), 404, notFound(missingId))
    })
  })

  describe("PUT /session/update/{id} (Coach)", () => {
    it("answers 204 with an empty body, applying only duree, athleteIds and activiteIds; other fields are ignored", async () => {
      const coach = await createCoach(club())
      const [a, b] = [await createAthlete(club()), await createAthlete(club())]
      const session = await createSession(club(), {
        name: "Fixed",
        isRecurrent: false,
        creneau: "2026-05-01T10:00:00",
        duree: 60,
        groupe: "G1",
        coachId: coach.id,
        athleteIds: [a.id]
      })
      const holder = await createSession(club())
      const activity = await createActivity(club(), holder.id)
      const applied = { duree: 75, athleteIds: [b.id], activiteIds: [activity] }
      const ignored = {
        id: 1,
        name: "Renamed?",
        isRecurrent: true,
        creneau: "2030-01-01T00:00:00",
        groupe: "G2",
        coachId: club().coachId
      }
      expectEmpty(await update(session.id, { ...ignored, ...applied }), 204)
      await expectSession(session.id, { ...session, ...applied })
      expect((await readSession(club(), holder.id)).activiteIds).toEqual([])
    })

    it("applies each of the three only when present", async () => {
      const [a, b] = [await createAthlete(club()), await createAthlete(club())]
      const session = await createSession(club(), { duree: 60, athleteIds: [a.id, b.id] })
      const activity = await createActivity(club(), session.id)
      const shortened = { ...session, duree: 15, activiteIds: [activity] }
      const steps: Array<[Record<string, unknown>, SessionDto]> = [
        [{ duree: 15 }, shortened],
        [{ athleteIds: [b.id] }, { ...shortened, athleteIds: [b.id] }],
        [{}, { ...shortened, athleteIds: [b.id] }]
      ]
      for (const [body, expected] of steps) {
        expectEmpty(await update(session.id, body), 204)
        await expectSession(session.id, expected)
      }
    })

    it("treats a null field as absent (duree, athleteIds, activiteIds null leave them as they are)", async () => {
      const athlete = await createAthlete(club())
      const session = await createSession(club(), { duree: 45, athleteIds: [athlete.id] })
      const activity = await createActivity(club(), session.id)
      expectEmpty(await update(session.id, { duree: null, athleteIds: null, activiteIds: null }), 204)
      await expectSession(session.id, { ...session, activiteIds: [activity] })
    })

    it("detaches the activities no longer listed (their sessionId becomes null); they are not deleted", async () => {
      const session = await createSession(club())
      const kept = await createActivity(club(), session.id, { name: unique("Kept") })
      const dropped = await createActivity(club(), session.id, { name: unique("Dropped") })
      expectEmpty(await update(session.id, { activiteIds: [kept] }), 204)
      expect((await readSession(club(), session.id)).activiteIds).toEqual([kept])
      expectJson(await club().coach.get(`/activite/${dropped}`), 200, expect.objectContaining({ sessionId: null }))
      expectJson(await club().coach.get(`/activite/${kept}`), 200, expect.objectContaining({ sessionId: session.id }))
    })

    it("answers 404 problem+json with detail 'Session not found with id N' when the session does not exist", async () => {
      expectProblem(await update(missingId, { duree: 10 }), 404, { detail: notFound(missingId) })
    })

    it("answers 400 problem+json naming unknown athlete or activity ids, and changes nothing", async () => {
      const athlete = await createAthlete(club())
      const session = await createSession(club(), { duree: 20, athleteIds: [athlete.id] })
      const activity = await createActivity(club(), session.id)
      const [athletes, activities] = [
        await update(session.id, { duree: 99, athleteIds: [missingId] }),
        await update(session.id, { duree: 99, activiteIds: [activity, missingId] })
      ]
      expectProblem(athletes, 400, { detail: new RegExp(`athleteIds.*${missingId}`, "u") })
      expectProblem(activities, 400, { detail: new RegExp(`activiteIds.*${missingId}`, "u") })
      await expectSession(session.id, { ...session, activiteIds: [activity] })
    })

    it("keeps each athlete once when athleteIds lists one twice", async () => {
      const athlete = await createAthlete(club())
      const session = await createSession(club())
      expectEmpty(await update(session.id, { athleteIds: [athlete.id, athlete.id] }), 204)
      expect(sorted((await readSession(club(), session.id)).athleteIds)).toEqual([athlete.id])
      expect((await sessionsOfAthlete(club(), athlete.id)).map((s) => s.id)).toEqual([session.id])
    })
  })
}
