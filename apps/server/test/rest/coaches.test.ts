import { describe, expect, it } from "vitest"
import { onEveryDatabase, unique } from "./support/club.ts"
import { expectEmpty, expectJson, expectProblem } from "@club/test-support/expectations"
import { allSessions, createCoach, createSession, expectGeneratedIdsAvoid, idAhead } from "./support/fixtures.ts"

const missingId = 987_654_321

/** CONTRACT.md: the seed's prefix-less paths, and the same operations under /coaches. */
const prefixes = ["", "/coaches"] as const

await onEveryDatabase("The seed's coach endpoints", (club) => {
  for (const prefix of prefixes) {
    describe(`at ${prefix === "" ? "the root paths, as the seed gives them" : "the /coaches prefix"}`, () => {
      describe(`POST ${prefix}/create (Admin)`, () => {
        it("answers 201 with the CoachDTO", async () => {
          const name = unique("Coach K")
          const reply = await club().admin.post(`${prefix}/create`, { name })
          expect(reply.status).toBe(201)
          const id = (reply.body as { id: number }).id
          expectJson(reply, 201, { id, name })
          expectJson(await club().admin.get(`${prefix}/${id}`), 200, { id, name })
        })

        it("copies a supplied id that no coach has onto the new record; later generated ids do not collide with it", async () => {
          const supplied = idAhead((await club().admin.get(`${prefix}/all`)).body as Array<{ id: number }>)
          expectJson(await club().admin.post(`${prefix}/create`, { id: supplied, name: "Supplied" }), 201, {
            id: supplied,
            name: "Supplied"
          })
          await expectGeneratedIdsAvoid(supplied, () => createCoach(club()))
        })

        it("refuses a supplied id already in use with 409 problem+json, and overwrites nothing", async () => {
          const existing = await createCoach(club(), { name: "Original" })
          expectProblem(await club().admin.post(`${prefix}/create`, { id: existing.id, name: "Usurper" }), 409, {
            detail: `Coach id ${existing.id} is already in use`
          })
          expectJson(await club().admin.get(`${prefix}/${existing.id}`), 200, existing)
        })
      })

      describe(`GET ${prefix}/all (Admin or Coach)`, () => {
        it("answers 200 with an array of CoachDTO", async () => {
          const coach = await createCoach(club(), { name: unique("Listed") })
          const [admin, asCoach] = await Promise.all([
            club().admin.get(`${prefix}/all`),
            club().coach.get(`${prefix}/all`)
          ])
          expectJson(admin, 200, expect.arrayContaining([coach, { id: club().coachId, name: "Coach Carter" }]))
          expectJson(asCoach, 200, admin.body)
        })
      })

      describe(`GET ${prefix}/{id} (Admin or Coach)`, () => {
        it("answers 200 with the CoachDTO", async () => {
          const coach = await createCoach(club(), { name: "Read" })
          expectJson(await club().admin.get(`${prefix}/${coach.id}`), 200, coach)
          expectJson(await club().coach.get(`${prefix}/${coach.id}`), 200, coach)
        })

        it("answers 404 with reason 'Coach not found' (problem detail; instance is the request path)", async () => {
          expectProblem(await club().coach.get(`${prefix}/${missingId}`), 404, {
            detail: "Coach not found",
            instance: `${prefix}/${missingId}`
          })
        })
      })

      describe(`PUT ${prefix}/update/{id} (Admin)`, () => {
        it("answers 200 with the CoachDTO, the name replaced", async () => {
          const coach = await createCoach(club(), { name: "Before" })
          expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { name: "After" }), 200, {
            id: coach.id,
            name: "After"
          })
          expectJson(await club().admin.get(`${prefix}/${coach.id}`), 200, { id: coach.id, name: "After" })
        })

        it("replaces name only when it is present (absent or null keep it), and never changes the id", async () => {
          const coach = await createCoach(club(), { name: "Kept" })
          expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, {}), 200, coach)
          expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { name: null }), 200, coach)
          expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { id: coach.id + 1 }), 200, coach)
          expectJson(await club().admin.get(`${prefix}/${coach.id}`), 200, coach)
        })

        it("answers 404 with reason 'Coach not found'", async () => {
          expectProblem(await club().admin.put(`${prefix}/update/${missingId}`, { name: "Nobody" }), 404, {
            detail: "Coach not found",
            instance: `${prefix}/update/${missingId}`
          })
        })
      })

      describe(`DELETE ${prefix}/delete/{id} (Admin)`, () => {
        it("answers 204 with an empty body, and the coach is gone", async () => {
          const coach = await createCoach(club())
          expectEmpty(await club().admin.delete(`${prefix}/delete/${coach.id}`), 204)
          expectProblem(await club().admin.get(`${prefix}/${coach.id}`), 404, { detail: "Coach not found" })
        })

        it("answers 404 with reason 'Coach not found'", async () => {
          expectProblem(await club().admin.delete(`${prefix}/delete/${missingId}`), 404, {
            detail: "Coach not found",
            instance: `${prefix}/delete/${missingId}`
          })
        })

        it("answers 409 problem+json 'Coach N still owns K sessions' for a coach who owns sessions; nothing is deleted", async () => {
          const coach = await createCoach(club())
          await createSession(club(), { coachId: coach.id })
          await createSession(club(), { coachId: coach.id })
          const sessions = await allSessions(club())
          expectProblem(await club().admin.delete(`${prefix}/delete/${coach.id}`), 409, {
            detail: `Coach ${coach.id} still owns 2 sessions`
          })
          expectJson(await club().admin.get(`${prefix}/${coach.id}`), 200, coach)
          expect(await allSessions(club())).toEqual(sessions)
        })
      })
    })
  }

  it("serves the same coaches at both paths", async () => {
    const coach = await createCoach(club(), { name: unique("Both") })
    expectJson(await club().admin.get(`/${coach.id}`), 200, coach)
    expectJson(await club().admin.get(`/coaches/${coach.id}`), 200, coach)
    const [root, prefixed] = await Promise.all([club().admin.get("/all"), club().admin.get("/coaches/all")])
    expect(root.body).toEqual(prefixed.body)
  })
})
