import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectEmpty, expectJson, expectProblem } from "@club/test-support/expectations"
import { createActivity, createAthlete, createSession, unique } from "../support/records.ts"

const missingId = 987_654_321
const club = clubForFile()

/** The athlete endpoints fill only id, name, categorie and niveau. */
const athleteDto = (id: number, name: string | null, categorie: string | null, niveau: string | null) => ({
  id,
  name,
  categorie,
  niveau,
  groupes: [],
  sessionIds: [],
  userId: null
})

describe("POST /athletes/create", () => {
  it("answers 201 with the AthleteDTO, ignoring groupes, sessionIds and userId", async () => {
    const name = unique("Mia")
    const reply = await club().admin.post("/athletes/create", {
      name,
      categorie: "U18",
      niveau: "Regional",
      groupes: ["sprint"],
      sessionIds: [1],
      userId: 42
    })
    const id = (reply.body as { id: number }).id
    expectJson(reply, 201, athleteDto(id, name, "U18", "Regional"))
    expectJson(await club().coach.get(`/athletes/${id}`), 200, athleteDto(id, name, "U18", "Regional"))
  })

  it("copies a supplied id onto the new record, and answers 409 problem+json for one in use", async () => {
    expectJson(
      await club().admin.post("/athletes/create", { id: 5_000, name: "Supplied" }),
      201,
      athleteDto(5_000, "Supplied", null, null)
    )
    expectProblem(
      await club().admin.post("/athletes/create", { id: 5_000, name: "Usurper" }),
      409,
      "Athlete id 5000 is already in use"
    )
    expectJson(await club().admin.get("/athletes/5000"), 200, athleteDto(5_000, "Supplied", null, null))
  })
})

describe("POST /athletes/all", () => {
  it("answers 200 with every AthleteDTO, the same to every role", async () => {
    const created = await createAthlete(club())
    const replies = await Promise.all([
      club().admin.post("/athletes/all"),
      club().coach.post("/athletes/all"),
      club().athlete.post("/athletes/all")
    ])
    for (const reply of replies) expectJson(reply, 200, expect.arrayContaining([created]))
    expect(replies[1]!.body).toEqual(replies[0]!.body)
    expect(replies[2]!.body).toEqual(replies[0]!.body)
  })
})

describe("GET /athletes/{id}", () => {
  it("answers the seed's empty 404 for an unknown athlete", async () => {
    expectEmpty(await club().coach.get(`/athletes/${missingId}`), 404)
  })
})

describe("PUT /athletes/{id}", () => {
  it("answers 200 with the AthleteDTO, replacing name, categorie and niveau, and the sessions when sessionIds is present", async () => {
    const athlete = await createAthlete(club(), { categorie: "U16", niveau: "Club" })
    const session = await createSession(club())
    const reply = await club().admin.put(`/athletes/${athlete.id}`, {
      name: "Renamed",
      categorie: null,
      niveau: "National",
      sessionIds: [session.id]
    })
    expectJson(reply, 200, athleteDto(athlete.id, "Renamed", null, "National"))
    expectJson(await club().coach.get(`/athletes/athlete/${athlete.id}/session`), 200, [
      { id: session.id, name: session["name"] }
    ])
  })

  it("lets the ATHLETE linked to the record update it", async () => {
    const reply = await club().athlete.put(`/athletes/${club().athleteId}`, {
      name: "Alex",
      categorie: "Senior",
      niveau: "B"
    })
    expectJson(reply, 200, athleteDto(club().athleteId, "Alex", "Senior", "B"))
  })

  it("answers the seed's empty 204 for any failure (an unknown athlete, an unknown session, bad input), changing nothing", async () => {
    const athlete = await createAthlete(club(), { name: "Kept" })
    expectEmpty(await club().admin.put(`/athletes/${missingId}`, { name: "x" }), 204)
    expectEmpty(await club().admin.put(`/athletes/${athlete.id}`, { name: "x", sessionIds: [missingId] }), 204)
    expectEmpty(await club().admin.put(`/athletes/${athlete.id}`, { name: 5 }), 204)
    expectJson(await club().admin.get(`/athletes/${athlete.id}`), 200, athlete)
  })
})

describe("DELETE /athletes/{id}", () => {
  it("answers 204, empty; the athlete is gone, and a second delete is the seed's empty 404", async () => {
    const athlete = await createAthlete(club())
    expectEmpty(await club().admin.delete(`/athletes/${athlete.id}`), 204)
    expectEmpty(await club().admin.get(`/athletes/${athlete.id}`), 404)
    expectEmpty(await club().admin.delete(`/athletes/${athlete.id}`), 404)
  })
})

describe("the schedule queries under /athletes", () => {
  it("answer the athlete's sessions as {id, name}, filtered by date; an unknown athlete has none", async () => {
    const athlete = await createAthlete(club())
    const early = await createSession(club(), { creneau: "2026-01-10T09:00:00", athleteIds: [athlete.id] })
    const late = await createSession(club(), { creneau: "2026-03-10T09:00:00", athleteIds: [athlete.id] })
    const summary = (session: typeof early) => ({ id: session.id, name: session["name"] })
    expectJson(await club().athlete.get(`/athletes/athlete/${athlete.id}/session`), 200, [
      summary(early),
      summary(late)
    ])
    expectJson(await club().athlete.get(`/athletes/athletes/${athlete.id}/session/after/2026-02-01`), 200, [
      summary(late)
    ])
    expectJson(
      await club().athlete.get(`/athletes/athletes/${athlete.id}/session/between/2026-01-01/2026-02-01`),
      200,
      [summary(early)]
    )
    expectJson(await club().athlete.get(`/athletes/athlete/${missingId}/session`), 200, [])
  })

  it("answer every session, and a session's activities, as {id, name}; an unknown session has none", async () => {
    const session = await createSession(club())
    const activity = await createActivity(club(), session.id, { name: "Hill sprints" })
    expectJson(
      await club().athlete.get("/athletes/athletes/session"),
      200,
      expect.arrayContaining([{ id: session.id, name: session["name"] }])
    )
    expectJson(await club().admin.get(`/athletes/athletes/session/${session.id}/activities`), 200, [
      { id: activity, name: "Hill sprints" }
    ])
    expectJson(await club().admin.get(`/athletes/athletes/session/${missingId}/activities`), 200, [])
  })

  it("answer 400 problem+json naming a date that does not parse", async () => {
    const reply = await club().athlete.get(`/athletes/athletes/${club().athleteId}/session/after/2026-13-45`)
    expectProblem(reply, 400, /^date: /u)
  })
})
