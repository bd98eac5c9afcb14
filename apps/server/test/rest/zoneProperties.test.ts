import * as fc from "fast-check"
import { expect, it } from "vitest"
import { expectNoServerError, expectStatus } from "@club/test-support/expectations"
import {
  allConflicts,
  callerFor,
  createCoach,
  createCoachMember,
  type SessionDto,
  unique
} from "@club/test-support/rest"
import { independentInstant } from "@club/test-support"
import { onEveryDatabase } from "./support/club.ts"

/*
 * The time-zone property over the wire (issue 36), on a server in Europe/Paris, with a smaller
 * budget than in process: two sessions of one coach written by the seed's endpoints around the
 * daylight-saving changes, gaps and overlaps included, are listed by `GET /planning/conflicts`
 * exactly when their instants, computed here with Intl alone, overlap; a session planned there by a
 * coach booked nowhere else books (201), and nothing answers 5xx.
 */

const zone = "Europe/Paris"
const pad = (n: number) => String(n).padStart(2, "0")
const wallClock = fc.record({
  day: fc.constantFrom("2027-03-27", "2027-03-28", "2027-10-30", "2027-10-31"),
  hour: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 23 })),
  minute: fc.constantFrom(0, 15, 30, 45, 59)
}).map(({ day, hour, minute }) => `${day}T${pad(hour)}:${pad(minute)}:00`)
const duree = fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(30, 45, 60, 90, 120))

await onEveryDatabase("Bookings are instants over the wire (time-zone property)", (club) => {
  it("conflicts list a pair exactly when its instants overlap; a planned session books; no 5xx", async () => {
    // Plans its own sessions, each deleted after its run: booked nowhere else.
    const planner = callerFor(club(), (await createCoachMember(club())).id)
    await fc.assert(
      fc.asyncProperty(wallClock, duree, wallClock, duree, async (first, firstDuree, second, secondDuree) => {
        const coach = await createCoach(club())
        const ids: Array<number> = []
        for (const [creneau, minutes] of [[first, firstDuree], [second, secondDuree]] as const) {
          const reply = await club().coach.post("/session/create", {
            name: unique("Zoned"),
            creneau,
            duree: minutes,
            coachId: coach.id
          })
          expectStatus(reply, 201)
          ids.push((reply.body as SessionDto).id)
        }
        const [a, b] = [first, second].map((local) => independentInstant(zone, local))
        const overlap = a! < b! + secondDuree * 60_000 && b! < a! + firstDuree * 60_000
        const listed = (await allConflicts(club(), club().coach)).filter((c) => c.coachId === coach.id)
        expect(listed.map((c) => c.sessionId), `${first} +${firstDuree}, ${second} +${secondDuree}`)
          .toEqual(overlap ? [ids[0]] : [])
        const planned = await planner.post("/planning/sessions", {
          name: unique("Planned"),
          groupe: null,
          coachId: null,
          athleteIds: [],
          duree: firstDuree,
          creneau: first
        })
        expectNoServerError(planned)
        expectStatus(planned, 201)
        expectStatus(await club().coach.delete(`/session/delete/${(planned.body as SessionDto).id}`), 200)
      }),
      // Two sessions that touch across the spring gap (the second's 02:15 is read as 03:15): found
      // by this property when the independent reading carried milliseconds into a gap's instant.
      { numRuns: 25, examples: [["2027-03-28T04:45:00", 1, "2027-03-28T02:15:00", 90]] }
    )
  }, 600_000)
}, { env: { CLUB_TIMEZONE: zone } })
