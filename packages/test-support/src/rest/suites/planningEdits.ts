import { describe, expect, it } from "vitest"
import { expectStatus } from "../../expectations.ts"
import type { Caller, Club } from "../Club.ts"
import {
  allConflicts,
  callerFor,
  createAthlete,
  createCoach,
  createCoachMember,
  type SessionDto,
  unique
} from "../records.ts"

interface SeriesDto {
  readonly id: number
  readonly occurrences: ReadonlyArray<{ readonly sessionId: number; readonly occurrenceStart: string }>
}

/**
 * Everyday planning edits (issue 36): `athleteIds` changed to lists that keep, add or remove
 * athletes, through every planning write, their bookings following the list; and bookings as
 * instants across daylight-saving changes. For a server with `CLUB_TIMEZONE=Europe/Paris`.
 *
 * A coach plans its own sessions (it is booked by them), so each test plans as coaches of its own:
 * the probes that find who is booked are planned by a coach booked nowhere else.
 */
export const planningEdits = (club: () => Club) => {
  const patch = (path: string, json: unknown) => club().coach.send("PATCH", path, { json })
  /** A session planned by `as` (the club's coach when absent), coached by it. */
  const plan = (creneau: string, athleteIds: ReadonlyArray<number>, duree = 60, as: Caller = club().coach) =>
    as.post("/planning/sessions", { name: unique("Edit"), groupe: null, coachId: null, athleteIds, duree, creneau })
  const planned = async (creneau: string, athleteIds: ReadonlyArray<number>, duree = 60) => {
    const reply = await plan(creneau, athleteIds, duree)
    expectStatus(reply, 201)
    return reply.body as SessionDto
  }
  /** A coach with a user of its own, logged in, booked by nothing yet. */
  const newCoach = async () => callerFor(club(), (await createCoachMember(club())).id)
  /** Which of `athleteIds` are booked over `[creneau, +duree)`: a session of each alone there is refused. */
  const bookedAmong = async (creneau: string, duree: number, athleteIds: ReadonlyArray<number>) => {
    const booked: Array<number> = []
    const prober = await newCoach()
    for (const athleteId of athleteIds) {
      const probe = await plan(creneau, [athleteId], duree, prober)
      if (probe.status === 409) booked.push(athleteId)
      else {
        expectStatus(probe, 201)
        expectStatus(await club().coach.delete(`/session/delete/${(probe.body as SessionDto).id}`), 200)
      }
    }
    return booked
  }
  const athletes = async (count: number) => {
    const ids: Array<number> = []
    for (let i = 0; i < count; i++) ids.push((await createAthlete(club())).id)
    return ids
  }
  const sorted = (ids: ReadonlyArray<number>) => [...new Set(ids)].sort((x, y) => x - y)
  const athletesOf = async (id: number) =>
    sorted(((await club().coach.get(`/session/${id}`)).body as SessionDto).athleteIds)

  describe("athleteIds changed to a list keeping, adding or removing athletes", () => {
    const lists = (a: number, b: number, c: number): ReadonlyArray<readonly [string, ReadonlyArray<number>]> => [
      ["keep one", [a]],
      ["add one", [a, b, c]],
      ["remove one, add one", [a, c]],
      ["the same list", [a, b]],
      ["reordered", [b, a]],
      ["empty", []]
    ]

    it("PATCH /planning/sessions/{id}: 200, the memberships and bookings are the list", async () => {
      const [a, b, c] = await athletes(3)
      let day = 10
      for (const [name, list] of lists(a!, b!, c!)) {
        const creneau = `2027-01-${day++}T10:00:00`
        const session = await planned(creneau, [a!, b!])
        const reply = await patch(`/planning/sessions/${session.id}`, { athleteIds: list })
        expect(reply.status, `${name}: ${reply.text}`).toBe(200)
        expect((reply.body as SessionDto).athleteIds.toSorted((x, y) => x - y), name).toEqual(sorted(list))
        expect(await bookedAmong(creneau, 30, [a!, b!, c!]), name).toEqual(sorted(list))
      }
    })

    it("PATCH of a series and of its occurrences (scope=one and following): 200, bookings follow", async () => {
      const [a, b, c] = await athletes(3)
      const created = await club().coach.post("/planning/series", {
        name: unique("Weekly"),
        groupe: null,
        coachId: null,
        duree: 60,
        start: "2027-01-04T18:00:00",
        rrule: "FREQ=WEEKLY;COUNT=4",
        athleteIds: [a, b]
      })
      expectStatus(created, 201)
      const series = created.body as SeriesDto
      const [first, second, third, fourth] = series.occurrences
      const one = await patch(`/planning/series/${series.id}/occurrences/${first!.sessionId}?scope=one`, {
        athleteIds: [a]
      })
      expect(one.status, one.text).toBe(200)
      expect(await athletesOf(first!.sessionId)).toEqual([a])
      expect(await bookedAmong(first!.occurrenceStart, 30, [a!, b!, c!])).toEqual([a])
      const following = await patch(
        `/planning/series/${series.id}/occurrences/${third!.sessionId}?scope=following`,
        { athleteIds: [b, c] }
      )
      expect(following.status, following.text).toBe(200)
      for (const occurrence of [third!, fourth!]) {
        expect(await athletesOf(occurrence.sessionId)).toEqual([b, c])
        expect(await bookedAmong(occurrence.occurrenceStart, 30, [a!, b!, c!])).toEqual([b, c])
      }
      const whole = await patch(`/planning/series/${series.id}`, { athleteIds: [a, b, c] })
      expect(whole.status, whole.text).toBe(200)
      expect(await athletesOf(second!.sessionId)).toEqual([a, b, c])
      expect(await bookedAmong(second!.occurrenceStart, 30, [a!, b!, c!])).toEqual([a, b, c])
    })
  })

  describe("bookings are instants in the club's zone (Europe/Paris)", () => {
    it("a session in the spring-forward gap (02:30 on 2027-03-28) is created, 30 or 45 minutes, and a weekly series through it", async () => {
      const [a, b] = await athletes(2)
      expectStatus(await plan("2027-03-28T02:30:00", [a!], 30, await newCoach()), 201)
      expectStatus(await plan("2027-03-28T02:30:00", [b!], 45, await newCoach()), 201)
      const series = await (await newCoach()).post("/planning/series", {
        name: unique("Through the gap"),
        groupe: null,
        coachId: null,
        duree: 45,
        start: "2027-03-21T02:30:00",
        rrule: "FREQ=WEEKLY;COUNT=3",
        athleteIds: []
      })
      expectStatus(series, 201)
      expect((series.body as SeriesDto).occurrences.map((o) => o.occurrenceStart)).toContain("2027-03-28T02:30:00")
    })

    it("the issue's examples: overlaps in real minutes are refused, what is apart in real minutes is not", async () => {
      const coach = await newCoach()
      // 01:30 CET + 90 real minutes ends at 04:00 CEST: 03:30 + 30 overlaps it by 30 minutes.
      expectStatus(await plan("2027-03-28T01:30:00", [], 90, coach), 201)
      expectStatus(await plan("2027-03-28T03:30:00", [], 30, coach), 409)
      // 01:30 CEST + 120 real minutes ends at 02:30 CET: 03:15 is 45 real minutes later.
      expectStatus(await plan("2027-10-31T01:30:00", [], 120, coach), 201)
      expectStatus(await plan("2027-10-31T03:15:00", [], 30, coach), 201)
      // 02:30 + 60 on the spring day twice: the same instants.
      const other = await newCoach()
      expectStatus(await plan("2027-03-28T02:30:00", [], 60, other), 201)
      expectStatus(await plan("2027-03-28T02:30:00", [], 60, other), 409)
    })

    it("GET /planning/conflicts lists the spring pair written by the seed's endpoints", async () => {
      const coach = await createCoach(club())
      const ids: Array<number> = []
      for (const [creneau, duree] of [["2027-03-28T01:30:00", 90], ["2027-03-28T03:30:00", 30]] as const) {
        const reply = await club().coach.post("/session/create", {
          name: unique("Seed"),
          creneau,
          duree,
          coachId: coach.id
        })
        expectStatus(reply, 201)
        ids.push((reply.body as SessionDto).id)
      }
      const conflicts = await allConflicts(club(), club().coach)
      expect(conflicts.filter((c) => c.coachId === coach.id)).toEqual([
        { sessionId: ids[0], otherSessionId: ids[1], coachId: coach.id, athleteId: null }
      ])
    })
  })
}
