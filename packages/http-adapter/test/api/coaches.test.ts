import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectEmpty, expectJson, expectProblem } from "@club/test-support/expectations"
import { createCoach, createSession, unique } from "../support/records.ts"

const missingId = 987_654_321
const club = clubForFile()

/** The seed serves the coaches at the root paths; the service also at `/coaches`. */
describe.each(["", "/coaches"])("the coach endpoints at '%s'", (prefix) => {
  it("create answers 201 with the CoachDTO; read answers it to an admin and a coach", async () => {
    const name = unique("Carla")
    const reply = await club().admin.post(`${prefix}/create`, { name })
    const id = (reply.body as { id: number }).id
    expectJson(reply, 201, { id, name })
    expectJson(await club().coach.get(`${prefix}/${id}`), 200, { id, name })
    expectJson(await club().admin.get(`${prefix}/all`), 200, expect.arrayContaining([{ id, name }]))
  })

  it("update answers 200 with the CoachDTO, the name kept when absent or null", async () => {
    const coach = await createCoach(club())
    expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { name: "New" }), 200, {
      id: coach.id,
      name: "New"
    })
    expectJson(await club().admin.put(`${prefix}/update/${coach.id}`, { name: null }), 200, {
      id: coach.id,
      name: "New"
    })
  })

  it("read, update and delete answer 404 problem+json 'Coach not found' for an unknown coach", async () => {
    expectProblem(await club().coach.get(`${prefix}/${missingId}`), 404, "Coach not found")
    expectProblem(await club().admin.put(`${prefix}/update/${missingId}`, { name: "x" }), 404, "Coach not found")
    expectProblem(await club().admin.delete(`${prefix}/delete/${missingId}`), 404, "Coach not found")
  })

  it("delete answers 204, empty; 409 problem+json for a coach who owns sessions, deleting nothing", async () => {
    const free = await createCoach(club())
    expectEmpty(await club().admin.delete(`${prefix}/delete/${free.id}`), 204)
    const busy = await createCoach(club())
    await createSession(club(), { coachId: busy.id })
    expectProblem(
      await club().admin.delete(`${prefix}/delete/${busy.id}`),
      409,
      `Coach ${busy.id} still owns 1 session`
    )
    expectJson(await club().admin.get(`${prefix}/${busy.id}`), 200, busy)
  })
})
