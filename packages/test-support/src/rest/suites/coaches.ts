import { describe, expect, it } from "vitest"
import { expectEmpty, expectJson, expectProblem } from "../../expectations.ts"
import type { Reply } from "../../Reply.ts"
import type { Club } from "../Club.ts"
import {
  allSessions,
  createCoach,
  createSession,
  expectGeneratedIdsAvoid,
  idAhead,
  missingId,
  unique
} from "../records.ts"

/** CONTRACT.md: the seed's prefix-less paths, and the same operations under /coaches. */
const prefixes = ["", "/coaches"] as const

/** The seed's coach endpoints, at both of their paths, on any harness. */
export const coachEndpoints = (club: () => Club) => {
  for (const prefix of prefixes) {
    describe(`at ${prefix === "" ? "the root paths, as the seed gives them" : "the /coaches prefix"}`, () => {
      const expectCoach = async (id: number, expected: unknown) =>
        expectJson(await club().admin.get(`${prefix}/${id}`), 200, expected)
      const expectNotFound = (reply: Reply, instance: string) =>
        expectProblem(reply, 404, { detail: "Coach not found", instance })

      describe(`POST ${prefix}/create (Admin)`, () => {
        it("answers 201 with the CoachDTO", async () => {
          const name = unique("Coach K")
          const reply = await club().admin.post(`${prefix}/create`, { name })
          expect(reply.status).toBe(201)
          const id = (reply.body as { id: number }).id
          expectJson(reply, 201, { id, name })
          await expectCoach(id, { id, name })
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
          await expectCoach(existing.id, existing)
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
          await expectCoach(coach.id, coach)
          expectJson(await club().coach.get(`${prefix}/${coach.id}`), 200, coach)
        })

        it("answers 404 with reason 'Coach not found' (problem detail; instance is the request path)", async () => {
          expectNotFound(await club().coach.get(`${prefix}/${missingId}`), `${prefix}/${missingId}`)
        })
      })

      describe(`PUT ${prefix}/update/{id} (Admin)`, () => {
        it("answers 200 with the CoachDTO, the name replaced", async () => {
          const coach = await createCoach(club(), { name: "Before" })
          const after = { id: coach.id, name: "After" }
          expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { name: "After" }), 200, after)
          await expectCoach(coach.id, after)
        })

        it("replaces name only when it is present (absent or null keep it), and never changes the id", async () => {
          const coach = await createCoach(club(), { name: "Kept" })
          for (const body of [{}, { name: null }, { id: coach.id + 1 }]) {
            expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, body), 200, coach)
          }
          await expectCoach(coach.id, coach)
        })

        it("answers 404 with reason 'Coach not found'", async () => {
          const path = `${prefix}/update/${missingId}`
          expectNotFound(await club().admin.put(path, { name: "Nobody" }), path)
        })
      })

      describe(`DELETE ${prefix}/delete/{id} (Admin)`, () => {
        it("answers 204 with an empty body, and the coach is gone", async () => {
          const coach = await createCoach(club())
          expectEmpty(await club().admin.delete(`${prefix}/delete/${coach.id}`), 204)
          expectProblem(await club().admin.get(`${prefix}/${coach.id}`), 404, { detail: "Coach not found" })
        })

        it("answers 404 with reason 'Coach not found'", async () => {
          const path = `${prefix}/delete/${missingId}`
          expectNotFound(await club().admin.delete(path), path)
        })

        it("answers 409 problem+json 'Coach N still owns K session(s)' for a coach who owns sessions; nothing is deleted", async () => {
          const coach = await createCoach(club())
          for (const owned of ["1 session", "2 sessions"]) {
            await createSession(club(), { coachId: coach.id })
            const sessions = await allSessions(club())
            expectProblem(await club().admin.delete(`${prefix}/delete/${coach.id}`), 409, {
              detail: `Coach ${coach.id} still owns ${owned}`
            })
            await expectCoach(coach.id, coach)
            expect(await allSessions(club())).toEqual(sessions)
          }
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
}
