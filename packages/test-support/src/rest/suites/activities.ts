import { describe, expect, it } from "vitest"
import { expectEmpty, expectJson, expectText } from "../../expectations.ts"
import type { Reply } from "../../Reply.ts"
import type { Club } from "../Club.ts"
import {
  activityDto,
  allActivities,
  createActivity,
  createSession,
  missingId,
  readSession,
  unique
} from "../records.ts"

/** The seed's activity endpoints, on any harness. */
export const activityEndpoints = (club: () => Club) => {
  /** The seed's 500 for any failure of an activity write: `Error: ` and the failure message. */
  const expectError = (reply: Reply, naming: string) => expectText(reply, 500, new RegExp(`^Error: .*${naming}`, "u"))
  const expectActivity = async (id: number | string, expected: unknown) =>
    expectJson(await club().coach.get(`/activite/${id}`), 200, expected)

  describe("POST /activite/create (Coach)", () => {
    it("answers 201, plain text 'Activity created', and stores the activity in its session", async () => {
      const session = await createSession(club())
      const fields = { name: unique("Sprints"), theme: "cardio", duree: 45, dataActivite: ["10 x 100 m", "rest 1 min"] }
      expectText(
        await club().coach.post("/activite/create", { ...fields, sessionId: session.id }),
        201,
        "Activity created"
      )
      const [id] = (await readSession(club(), session.id)).activiteIds
      await expectActivity(id!, activityDto(session.id, fields))
    })

    it("says where the new activity is: Location /activite/<its id>, the id its session lists", async () => {
      const session = await createSession(club())
      const name = unique("Located")
      const reply = await club().coach.post("/activite/create", { name, theme: "agility", sessionId: session.id })
      expectText(reply, 201, "Activity created")
      const location = reply.headers.get("location")
      expect(location).toMatch(/^\/activite\/[1-9][0-9]*$/u)
      const [id] = (await readSession(club(), session.id)).activiteIds
      expect(location).toBe(`/activite/${id}`)
      expectJson(await club().athlete.get(location!), 200, activityDto(session.id, { name, theme: "agility" }))
    })

    it("ignores the id of the request body, and keeps a missing duree null", async () => {
      const session = await createSession(club())
      expectText(
        await club().coach.post("/activite/create", { id: 777_777, name: "Stretching", sessionId: session.id }),
        201,
        "Activity created"
      )
      const [id] = (await readSession(club(), session.id)).activiteIds
      expect(id).not.toBe(777_777)
      expectEmpty(await club().coach.get("/activite/777777"), 404)
      await expectActivity(id!, activityDto(session.id, { name: "Stretching" }))
    })

    it("answers 500, plain text 'Error: ' followed by the failure message, when sessionId is unknown; nothing is stored", async () => {
      const before = await allActivities(club())
      const reply = await club().coach.post("/activite/create", { name: unique("Orphan"), sessionId: missingId })
      expectError(reply, `sessionId.*${missingId}`)
      expect(await allActivities(club())).toEqual(before)
    })

    it("answers 500, plain text 'Error: ' followed by the failure message, when sessionId is missing; nothing is stored", async () => {
      const before = await allActivities(club())
      expectError(await club().coach.post("/activite/create", { name: unique("Orphan") }), "sessionId")
      expect(await allActivities(club())).toEqual(before)
    })
  })

  describe("DELETE /activite/delete/{id} (Coach)", () => {
    it("answers 200, plain text 'Activity deleted', and the activity is gone", async () => {
      const session = await createSession(club())
      const id = await createActivity(club(), session.id)
      expectText(await club().coach.delete(`/activite/delete/${id}`), 200, "Activity deleted")
      expectEmpty(await club().coach.get(`/activite/${id}`), 404)
      expect((await readSession(club(), session.id)).activiteIds).toEqual([])
      expectError(await club().coach.delete(`/activite/delete/${id}`), String(id))
    })

    it("answers 500, plain text 'Error: ' followed by the failure message, when the activity does not exist", async () => {
      expectError(await club().coach.delete(`/activite/delete/${missingId}`), String(missingId))
    })
  })

  describe("POST /activite/update/{id} (Coach)", () => {
    it("answers 200, plain text 'Activity modified', replacing name, theme, duree, dataActivite and session", async () => {
      const [from, to] = [await createSession(club()), await createSession(club())]
      const id = await createActivity(club(), from.id, { name: "Before", theme: "old", duree: 10, dataActivite: ["a"] })
      const fields = { name: "After", theme: "new", duree: 20, dataActivite: ["b", "c"] }
      expectText(
        await club().coach.post(`/activite/update/${id}`, { ...fields, sessionId: to.id }),
        200,
        "Activity modified"
      )
      await expectActivity(id, activityDto(to.id, fields))
      expect((await readSession(club(), from.id)).activiteIds).toEqual([])
      expect((await readSession(club(), to.id)).activiteIds).toEqual([id])
    })

    it("stores a null duree as 0, and replaces absent fields by null", async () => {
      const session = await createSession(club())
      const id = await createActivity(club(), session.id, { name: "Keep?", theme: "t", duree: 30, dataActivite: ["x"] })
      expectText(
        await club().coach.post(`/activite/update/${id}`, { duree: null, sessionId: session.id }),
        200,
        "Activity modified"
      )
      await expectActivity(id, activityDto(session.id, { duree: 0 }))
    })

    it("answers 500, plain text 'Error: ' followed by the failure message, when the activity does not exist", async () => {
      const session = await createSession(club())
      const reply = await club().coach.post(`/activite/update/${missingId}`, { name: "x", sessionId: session.id })
      expectError(reply, String(missingId))
    })

    it("answers 500, plain text 'Error: ' followed by the failure message, when the session does not exist; the activity is unchanged", async () => {
      const session = await createSession(club())
      const id = await createActivity(club(), session.id, { name: "Stays", theme: "t", duree: 5 })
      const before = await club().coach.get(`/activite/${id}`)
      const reply = await club().coach.post(`/activite/update/${id}`, { name: "Moved?", sessionId: missingId })
      expectError(reply, `sessionId.*${missingId}`)
      await expectActivity(id, before.body)
    })
  })

  describe("GET /activite/{id} (Coach or Athlete)", () => {
    it("answers 200 with the ActiviteDTO, id returned as null", async () => {
      const session = await createSession(club())
      const fields = { name: "Read me", theme: "read", duree: 12, dataActivite: ["d"] }
      const id = await createActivity(club(), session.id, fields)
      await expectActivity(id, activityDto(session.id, fields))
      expectJson(await club().athlete.get(`/activite/${id}`), 200, activityDto(session.id, fields))
    })

    it("answers 404 with an empty body when the activity does not exist", async () => {
      expectEmpty(await club().athlete.get(`/activite/${missingId}`), 404)
    })
  })

  describe("GET /activite/all (Coach or Athlete)", () => {
    it("answers 200 with an array of ActiviteDTO, every id returned as null", async () => {
      const session = await createSession(club())
      const fields = { name: unique("Listed"), theme: "list", duree: 7, dataActivite: [] }
      await createActivity(club(), session.id, fields)
      const reply = await club().athlete.get("/activite/all")
      expectJson(reply, 200, expect.arrayContaining([activityDto(session.id, fields)]))
      for (const activity of reply.body as Array<{ id: unknown }>) expect(activity.id).toBeNull()
    })
  })

  describe("GET /activite/theme/{theme} (Coach or Athlete)", () => {
    /** The activities `GET /activite/theme/{theme}` answers, the theme percent-encoded in the path. */
    const withTheme = (theme: string) => club().athlete.get(`/activite/theme/${encodeURIComponent(theme)}`)

    it("answers 200 with the activities whose theme equals the path value (exact match)", async () => {
      const session = await createSession(club())
      const theme = unique("Plyo")
      const [a, b] = [unique("Jumps"), unique("Bounds")]
      await createActivity(club(), session.id, { name: a, theme })
      await createActivity(club(), session.id, { name: b, theme })
      await createActivity(club(), session.id, { name: unique("Other"), theme: theme.toUpperCase() })
      await createActivity(club(), session.id, { name: unique("Prefix"), theme: `${theme}-extra` })
      await createActivity(club(), session.id, { name: unique("Plural"), theme: `${theme}s` })
      const reply = await club().coach.get(`/activite/theme/${theme}`)
      expectJson(
        reply,
        200,
        expect.arrayContaining([
          activityDto(session.id, { name: a, theme }),
          activityDto(session.id, { name: b, theme })
        ])
      )
      expect(reply.body).toHaveLength(2)
    })

    it("matches a theme with a space given percent-encoded in the path", async () => {
      const session = await createSession(club())
      const theme = `${unique("upper")} body`
      await createActivity(club(), session.id, { name: "Push-ups", theme })
      expectJson(await withTheme(theme), 200, [activityDto(session.id, { name: "Push-ups", theme })])
    })

    it("matches a theme of 200 characters, the longest an activity can hold", async () => {
      const session = await createSession(club())
      const theme = `${unique("Renforcement")} musculaire, élastiques ${"et haltères ".repeat(20)}`.slice(0, 200)
      expect(theme).toHaveLength(200)
      await createActivity(club(), session.id, { name: "Long theme", theme })
      expectJson(await withTheme(theme), 200, [activityDto(session.id, { name: "Long theme", theme })])
    })

    it("answers 200 with an empty array when no activity has that theme", async () => {
      expectJson(await club().athlete.get(`/activite/theme/${unique("none")}`), 200, [])
    })
  })
}
