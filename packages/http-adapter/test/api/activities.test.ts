import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectEmpty, expectJson, expectText } from "@club/test-support/expectations"
import { createActivity, createSession, readSession, unique } from "../support/records.ts"

const missingId = 987_654_321
const club = clubForFile()

describe("POST /activite/create", () => {
  it("answers 201 plain text 'Activity created' with Location /activite/<id>, the id its session lists", async () => {
    const session = await createSession(club())
    const name = unique("Sprints")
    const reply = await club().coach.post("/activite/create", {
      id: 777_777,
      name,
      theme: "cardio",
      duree: 45,
      dataActivite: ["10 x 100 m"],
      sessionId: session.id
    })
    expectText(reply, 201, "Activity created")
    const [id] = (await readSession(club(), session.id)).activiteIds
    expect(id).not.toBe(777_777)
    expect(reply.headers.get("location")).toBe(`/activite/${id}`)
    expectJson(await club().athlete.get(`/activite/${id}`), 200, {
      id: null,
      name,
      theme: "cardio",
      duree: 45,
      dataActivite: ["10 x 100 m"],
      sessionId: session.id
    })
  })

  it("answers the seed's 500 plain text 'Error: ...' naming sessionId when it is unknown or missing; nothing is stored", async () => {
    const before = (await club().coach.get("/activite/all")).body
    expectText(
      await club().coach.post("/activite/create", { name: "Orphan", sessionId: missingId }),
      500,
      new RegExp(`^Error: .*sessionId.*${missingId}`, "u")
    )
    expectText(await club().coach.post("/activite/create", { name: "Orphan" }), 500, /^Error: (.*; )?sessionId/u)
    expect((await club().coach.get("/activite/all")).body).toEqual(before)
  })
})

describe("POST /activite/update/{id}", () => {
  it("answers 200 plain text 'Activity modified', replacing every field (a null duree stored as 0)", async () => {
    const [from, to] = [await createSession(club()), await createSession(club())]
    const id = await createActivity(club(), from.id, { theme: "old", duree: 10, dataActivite: ["a"] })
    expectText(
      await club().coach.post(`/activite/update/${id}`, { name: "After", duree: null, sessionId: to.id }),
      200,
      "Activity modified"
    )
    expectJson(await club().coach.get(`/activite/${id}`), 200, {
      id: null,
      name: "After",
      theme: null,
      duree: 0,
      dataActivite: [],
      sessionId: to.id
    })
  })

  it("answers the seed's 500 'Error: ...' for an unknown activity", async () => {
    const session = await createSession(club())
    expectText(
      await club().coach.post(`/activite/update/${missingId}`, { sessionId: session.id }),
      500,
      new RegExp(`^Error: .*${missingId}`, "u")
    )
  })
})

describe("DELETE /activite/delete/{id}", () => {
  it("answers 200 plain text 'Activity deleted'; a second delete is the seed's 500 'Error: ...'", async () => {
    const session = await createSession(club())
    const id = await createActivity(club(), session.id)
    expectText(await club().coach.delete(`/activite/delete/${id}`), 200, "Activity deleted")
    expectText(await club().coach.delete(`/activite/delete/${id}`), 500, new RegExp(`^Error: .*${id}`, "u"))
  })
})

describe("the activity reads", () => {
  it("GET /activite/{id} answers the seed's empty 404 for an unknown activity", async () => {
    expectEmpty(await club().athlete.get(`/activite/${missingId}`), 404)
  })

  it("GET /activite/theme/{theme} matches the theme exactly, percent-encoded too; none is an empty list", async () => {
    const session = await createSession(club())
    const theme = unique("long run")
    await createActivity(club(), session.id, { theme })
    await createActivity(club(), session.id, { theme: `${theme}s` })
    const found = (await club().athlete.get(`/activite/theme/${encodeURIComponent(theme)}`)).body as Array<
      { theme: string }
    >
    expect(found.map((activity) => activity.theme)).toEqual([theme])
    expectJson(await club().athlete.get("/activite/theme/no-such-theme"), 200, [])
  })

  it("GET /activite/all answers every activity, each with id null", async () => {
    const all = (await club().coach.get("/activite/all")).body as Array<{ id: unknown }>
    expect(all.length).toBeGreaterThan(0)
    expect(all.every((activity) => activity.id === null)).toBe(true)
  })
})
