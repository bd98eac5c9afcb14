import { describe, expect, it } from "vitest"
import { expectEmpty, expectProblem, expectStatus, expectText } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import { callerFor, createAthlete, createCoachMember as createCoach, readSession, unique } from "../records.ts"

const seedCreate = (club: Club, body: Record<string, unknown>) =>
  club.coach.post("/session/create", { name: unique("Seed"), ...body })
/** As the coach the session is for (issue 36: a coach plans for itself), the club's coach when none is named. */
const plan = (club: Club, body: Record<string, unknown>) =>
  callerFor(club, body["coachId"]).post("/planning/sessions", { name: unique("Planned"), ...body })

/**
 * The seed's session create and update beside the schedule's bookings, with the club setting
 * SCHEDULE_SEED_REFUSES_CONFLICTS off (the default): the seed answers as it always did, and a
 * booked session's bookings follow a seed update of its `duree` or athletes.
 */
export const seedBesideBookings = (club: () => Club) => {
  describe("the seed's session writes, SCHEDULE_SEED_REFUSES_CONFLICTS off", () => {
    it("creates an overlapping session as the seed does, booking no one", async () => {
      const coach = await createCoach(club())
      expectStatus(await plan(club(), { coachId: coach.id, creneau: "2034-01-02T10:00:00", duree: 60 }), 201)
      const reply = await seedCreate(club(), { coachId: coach.id, creneau: "2034-01-02T10:30:00", duree: 60 })
      expectStatus(reply, 201)
      // It booked no one: the schedule can still book the coach at its time, after the first.
      expectStatus(await plan(club(), { coachId: coach.id, creneau: "2034-01-02T11:00:00", duree: 30 }), 201)
    })

    it("keeps a booked session's bookings at its new duree and athletes after a seed update", async () => {
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const session = (await plan(club(), { coachId: coach.id, creneau: "2034-02-06T10:00:00", duree: 60 })).body as {
        id: number
      }
      expectEmpty(
        await club().coach.put(`/session/update/${session.id}`, { duree: 120, athleteIds: [athlete.id] }),
        204
      )
      // 11:30 is now within the session, for its coach and its new athlete.
      expectProblem(await plan(club(), { coachId: coach.id, creneau: "2034-02-06T11:30:00", duree: 10 }), 409)
      expectProblem(await plan(club(), { athleteIds: [athlete.id], creneau: "2034-02-06T11:30:00", duree: 10 }), 409)
      expectEmpty(await club().coach.put(`/session/update/${session.id}`, { duree: 30 }), 204)
      expectStatus(await plan(club(), { coachId: coach.id, creneau: "2034-02-06T10:30:00", duree: 30 }), 201)
    })
  })
}

/** The same with SCHEDULE_SEED_REFUSES_CONFLICTS on: the seed's create and update refuse double bookings. */
export const seedRefusingConflicts = (club: () => Club) => {
  describe("the seed's session writes, SCHEDULE_SEED_REFUSES_CONFLICTS on", () => {
    it("refuses a create that double-books, in the seed's 400 plain text, writing nothing", async () => {
      const coach = await createCoach(club())
      const held = (await plan(club(), { coachId: coach.id, creneau: "2034-03-06T10:00:00", duree: 60 })).body as {
        id: number
      }
      const name = unique("Refused")
      expectText(
        await seedCreate(club(), { name, coachId: coach.id, creneau: "2034-03-06T10:30:00", duree: 60 }),
        400,
        `Double booking: the coach or an athlete is already booked at an overlapping time in session ${held.id}`
      )
      const all = (await club().coach.get("/session/all")).body as ReadonlyArray<{ name: string }>
      expect(all.filter((session) => session.name === name)).toEqual([])
      // A seed session books too: the next one at its time is refused, through either endpoint.
      const seeded = (await seedCreate(club(), { coachId: coach.id, creneau: "2034-03-06T11:00:00", duree: 60 }))
        .body as { id: number }
      expectProblem(
        await plan(club(), { coachId: coach.id, creneau: "2034-03-06T11:15:00", duree: 10 }),
        409,
        new RegExp(`in session ${seeded.id}$`, "u")
      )
      expectText(
        await seedCreate(club(), { coachId: coach.id, creneau: "2034-03-06T11:59:00", duree: 5 }),
        400,
        /^Double booking/u
      )
    })

    it("refuses an update whose duree or athletes double-book, with a 409 naming the sessions; nothing changes", async () => {
      const athlete = await createAthlete(club())
      const first = (await seedCreate(club(), { athleteIds: [athlete.id], creneau: "2034-04-03T10:00:00", duree: 60 }))
        .body as { id: number }
      const second = (await seedCreate(club(), { creneau: "2034-04-03T09:00:00", duree: 30 })).body as { id: number }
      const before = await readSession(club(), second.id)
      expectProblem(
        await club().coach.put(`/session/update/${second.id}`, { duree: 90, athleteIds: [athlete.id] }),
        409,
        `Double booking: the coach or an athlete is already booked at an overlapping time in session ${first.id}`
      )
      expect(await readSession(club(), second.id)).toEqual(before)
      expectEmpty(await club().coach.put(`/session/update/${second.id}`, { duree: 60, athleteIds: [athlete.id] }), 204)
    })
  })
}
