import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectEmpty, expectJson, expectProblem, expectText } from "@club/test-support/expectations"
import { createActivity, createAthlete, createCoach, createSession, readSession, unique } from "../support/records.ts"

const missingId = 987_654_321
const club = clubForFile()

describe("POST /session/create", () => {
  it("answers 201 with the SessionDTO, its athletes and activities as listed (the activities move into it)", async () => {
    const [a, b] = [await createAthlete(club()), await createAthlete(club())]
    const coach = await createCoach(club())
    const elsewhere = await createSession(club())
    const activity = await createActivity(club(), elsewhere.id)
    const name = unique("Track night")
    const reply = await club().coach.post("/session/create", {
      name,
      isRecurrent: true,
      creneau: "2026-11-21T18:30:00",
      duree: 90,
      groupe: "Sprinters",
      coachId: coach.id,
      athleteIds: [a.id, b.id],
      activiteIds: [activity]
    })
    const id = (reply.body as { id: number }).id
    const expected = {
      id,
      name,
      isRecurrent: true,
      creneau: "2026-11-21T18:30:00",
      duree: 90,
      groupe: "Sprinters",
      coachId: coach.id,
      athleteIds: [a.id, b.id],
      activiteIds: [activity]
    }
    expectJson(reply, 201, expected)
    expectJson(await club().athlete.get(`/session/${id}`), 200, expected)
    expect((await readSession(club(), elsewhere.id)).activiteIds).toEqual([])
  })

  it("answers 400 plain text naming an unknown athlete, activity or coach id, and writes nothing", async () => {
    const before = (await club().coach.get("/session/all")).body
    expectText(
      await club().coach.post("/session/create", { athleteIds: [missingId] }),
      400,
      new RegExp(`athleteIds.*${missingId}`, "u")
    )
    expectText(
      await club().coach.post("/session/create", { activiteIds: [missingId] }),
      400,
      new RegExp(`activiteIds.*${missingId}`, "u")
    )
    expectText(
      await club().coach.post("/session/create", { coachId: missingId }),
      400,
      new RegExp(`coachId.*${missingId}`, "u")
    )
    expect((await club().coach.get("/session/all")).body).toEqual(before)
  })

  it("answers 400 plain text naming the field for input it cannot decode", async () => {
    expectText(await club().coach.post("/session/create", { duree: "long" }), 400, /^(.*; )?duree: /u)
    expectText(await club().coach.post("/session/create", { creneau: "tomorrow" }), 400, /^(.*; )?creneau: /u)
  })
})

describe("GET /session/all and /session/{id}", () => {
  it("answer every session in id order, and one by id", async () => {
    const [first, second] = [await createSession(club()), await createSession(club())]
    const all = (await club().athlete.get("/session/all")).body as Array<{ id: number }>
    expect(all.map((session) => session.id)).toEqual(all.map((session) => session.id).sort((x, y) => x - y))
    expect(all).toEqual(expect.arrayContaining([first, second]))
    expectJson(await club().coach.get(`/session/${first.id}`), 200, first)
  })

  it("answer 404 plain text 'Session not found with id N' for an unknown session", async () => {
    expectText(await club().athlete.get(`/session/${missingId}`), 404, `Session not found with id ${missingId}`)
  })
})

describe("PUT /session/update/{id}", () => {
  it("answers 204, empty, applying only duree, athleteIds and activiteIds", async () => {
    const athlete = await createAthlete(club())
    const session = await createSession(club(), { name: "Fixed", duree: 60 })
    expectEmpty(
      await club().coach.put(`/session/update/${session.id}`, { name: "Ignored", duree: 75, athleteIds: [athlete.id] }),
      204
    )
    expectJson(await club().coach.get(`/session/${session.id}`), 200, {
      ...session,
      duree: 75,
      athleteIds: [athlete.id]
    })
  })

  it("answers 404 problem+json for an unknown session, and 400 problem+json naming unknown ids", async () => {
    expectProblem(
      await club().coach.put(`/session/update/${missingId}`, { duree: 10 }),
      404,
      `Session not found with id ${missingId}`
    )
    const session = await createSession(club())
    expectProblem(
      await club().coach.put(`/session/update/${session.id}`, { athleteIds: [missingId] }),
      400,
      new RegExp(`athleteIds.*${missingId}`, "u")
    )
  })
})

describe("DELETE /session/delete/{id}", () => {
  it("answers 200 plain text 'Session deleted successfully', deleting its activities; then 404 plain text", async () => {
    const session = await createSession(club())
    const activity = await createActivity(club(), session.id)
    expectText(await club().coach.delete(`/session/delete/${session.id}`), 200, "Session deleted successfully")
    expectEmpty(await club().coach.get(`/activite/${activity}`), 404)
    expectText(
      await club().coach.delete(`/session/delete/${session.id}`),
      404,
      `Session not found with id ${session.id}`
    )
  })
})
