import { describe, expect, it } from "vitest"
import { expectProblem } from "../../expectations.ts"
import type { Reply } from "../../Reply.ts"
import type { Club } from "../Club.ts"
import { expectSameSeries } from "./sameSeries.ts"
import {
  allConflicts,
  callerFor,
  createActivity,
  createAthlete,
  createCoachMember as createCoach,
  missingId,
  readSession,
  unique
} from "../records.ts"

interface OccurrenceDto {
  readonly sessionId: number
  readonly occurrenceStart: string
}

interface SeriesDto {
  readonly id: number
  readonly name: string | null
  readonly groupe: string | null
  readonly coachId: number | null
  readonly athleteIds: ReadonlyArray<number>
  readonly duree: number
  readonly start: string
  readonly rrule: string
  readonly expandedUntil: string
  readonly occurrences: ReadonlyArray<OccurrenceDto>
}

/** The series answered, as it was written. */
const expectSeriesRead = (reply: Reply, series: SeriesDto) => {
  expect(reply.status, reply.text).toBe(200)
  expectSameSeries(reply.body as SeriesDto, series)
}

/** Issue 17's series and conflicts endpoints under `/planning`, on any harness. */
export const seriesEndpoints = (club: () => Club) => {
  /** As the coach the series is for (issue 36: a coach creates for itself), the club's coach when none is named. */
  const createSeries = (body: Record<string, unknown>) =>
    callerFor(club(), body["coachId"]).post("/planning/series", body)

  describe("POST /planning/series (Coach)", () => {
    it("answers 201 with the series and its occurrences, each a session the seed's endpoints show", async () => {
      const coach = await createCoach(club())
      const [a, b] = [await createAthlete(club()), await createAthlete(club())]
      const fields = {
        name: unique("Track"),
        groupe: "Sprinters",
        coachId: coach.id,
        athleteIds: [b.id, a.id],
        duree: 90,
        start: "2026-03-26T18:00:00",
        rrule: "FREQ=WEEKLY;BYDAY=TH,SA;COUNT=3"
      }
      const reply = await createSeries(fields)
      expect(reply.status, reply.text).toBe(201)
      const series = reply.body as SeriesDto
      expect(series).toMatchObject({ ...fields, athleteIds: [a.id, b.id] })
      expect(series.occurrences.map((o) => o.occurrenceStart)).toEqual([
        "2026-03-26T18:00:00",
        "2026-03-28T18:00:00",
        "2026-04-02T18:00:00"
      ])
      for (const occurrence of series.occurrences) {
        expect(await readSession(club(), occurrence.sessionId)).toEqual({
          id: occurrence.sessionId,
          name: fields.name,
          isRecurrent: true,
          creneau: occurrence.occurrenceStart,
          duree: 90,
          groupe: "Sprinters",
          coachId: coach.id,
          athleteIds: [a.id, b.id],
          activiteIds: []
        })
      }
      expectSeriesRead(await club().athlete.get(`/planning/series/${series.id}`), series)
    })

    for (
      const [title, body, detail] of [
        ["an RRULE outside the subset", { rrule: "FREQ=MONTHLY;COUNT=2" }, /^rrule: FREQ must be DAILY or WEEKLY/u],
        ["a zero interval", { rrule: "FREQ=DAILY;INTERVAL=0;COUNT=2" }, /^rrule: INTERVAL must be a positive integer/u],
        ["an UNTIL before the start", { rrule: "FREQ=DAILY;UNTIL=20260101" }, /^rrule: UNTIL .* is before the start/u],
        [
          "more occurrences than the club allows",
          { rrule: "FREQ=DAILY;COUNT=100000" },
          /^rrule: the series would create more than/u
        ],
        [
          "unknown athletes",
          { athleteIds: [missingId] },
          new RegExp(`^athleteIds: no athlete with id ${missingId}$`, "u")
        ]
      ] as const
    ) {
      it(`answers 400 naming the field for ${title}; nothing is written`, async () => {
        const name = unique("Refused")
        const valid: Record<string, unknown> = { duree: 60, start: "2026-03-26T18:00:00", rrule: "FREQ=DAILY;COUNT=2" }
        const reply = await createSeries({ ...valid, name, ...body })
        expectProblem(reply, 400, detail)
        const sessions = (await club().coach.get("/session/all")).body as ReadonlyArray<{ name: string }>
        expect(sessions.filter((session) => session.name === name)).toEqual([])
      })
    }

    it("answers 400 naming the field for a body that does not decode (a zero duree, a start with an offset)", async () => {
      const reply = await createSeries({ duree: 0, start: "2026-03-26T18:00:00", rrule: "FREQ=DAILY;COUNT=2" })
      expectProblem(reply, 400, /duree/u)
      const offset = await createSeries({ duree: 30, start: "2026-03-26T18:00:00+01:00", rrule: "FREQ=DAILY;COUNT=2" })
      expectProblem(offset, 400, /start/u)
    })

    it("answers 409 naming the sessions when the coach or an athlete is already booked at an overlapping time; nothing is written", async () => {
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const first = (await createSeries({
        coachId: coach.id,
        duree: 60,
        start: "2026-06-01T18:00:00",
        rrule: "FREQ=DAILY;COUNT=2"
      })).body as SeriesDto
      const name = unique("Overlapping")
      const ids = first.occurrences.map((o) => o.sessionId)
      expectProblem(
        await createSeries({
          name,
          coachId: coach.id,
          duree: 30,
          start: "2026-06-01T18:45:00",
          rrule: "FREQ=DAILY;COUNT=3"
        }),
        409,
        `Double booking: the coach or an athlete is already booked at an overlapping time in sessions ${ids.join(", ")}`
      )
      await createSeries({
        athleteIds: [athlete.id],
        duree: 90,
        start: "2026-06-05T10:00:00",
        rrule: "FREQ=DAILY;COUNT=1"
      })
      const athleteClash = await createSeries({
        name,
        athleteIds: [athlete.id],
        duree: 10,
        start: "2026-06-05T11:00:00",
        rrule: "FREQ=DAILY;COUNT=1"
      })
      expectProblem(athleteClash, 409, /^Double booking: .* in session \d+$/u)
      const sessions = (await club().coach.get("/session/all")).body as ReadonlyArray<{ name: string }>
      expect(sessions.filter((session) => session.name === name)).toEqual([])
      // Back to back is no conflict.
      expect(
        (await createSeries({
          coachId: coach.id,
          duree: 30,
          start: "2026-06-01T19:00:00",
          rrule: "FREQ=DAILY;COUNT=2"
        })).status
      )
        .toBe(201)
    })

    it("answers 403 to an athlete, before anything is written", async () => {
      expectProblem(
        await club().athlete.post("/planning/series", {
          duree: 30,
          start: "2026-03-26T18:00:00",
          rrule: "FREQ=DAILY;COUNT=1"
        }),
        403
      )
    })
  })

  describe("GET /planning/series/{id} (any role)", () => {
    it("answers 404 for an unknown series", async () => {
      expectProblem(
        await club().admin.get(`/planning/series/${missingId}`),
        404,
        `Series not found with id ${missingId}`
      )
    })

    it("no longer lists an occurrence whose session was deleted", async () => {
      const created = (await createSeries({ duree: 45, start: "2026-05-04T07:00:00", rrule: "FREQ=DAILY;COUNT=2" }))
        .body as SeriesDto
      await club().coach.delete(`/session/delete/${created.occurrences[0]!.sessionId}`)
      const read = (await club().coach.get(`/planning/series/${created.id}`)).body as SeriesDto
      expect(read.occurrences).toEqual([created.occurrences[1]])
    })
  })

  /** The date `days` from today (UTC, the harness's club zone), at `time`. */
  const fromToday = (days: number, time: string) =>
    `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`
  /** Two occurrences days ago, two in the days to come (never today, whatever the hour). */
  const aroundToday = async () => {
    const reply = await createSeries({
      // A coach of its own: the club's coach would be double-booked by the other tests' series.
      coachId: (await createCoach(club())).id,
      name: unique("Around today"),
      duree: 60,
      start: fromToday(-3, "06:00:00"),
      rrule: "FREQ=DAILY;INTERVAL=2;COUNT=4"
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body as SeriesDto
  }
  const sessionExists = async (id: number) => (await club().coach.get(`/session/${id}`)).status === 200

  describe("DELETE /planning/series/{id} (Coach)", () => {
    it("answers 204; the occurrences to come go, the past ones and their activities stay", async () => {
      const series = await aroundToday()
      const [past1, past2, next1, next2] = series.occurrences.map((o) => o.sessionId)
      const activity = await createActivity(club(), past1!)
      expect((await callerFor(club(), series.coachId).delete(`/planning/series/${series.id}`)).status).toBe(204)
      const read = (await club().coach.get(`/planning/series/${series.id}`)).body as SeriesDto
      expect(read.occurrences).toEqual(series.occurrences.slice(0, 2))
      expect((await readSession(club(), past1!)).activiteIds).toEqual([activity])
      expect(await sessionExists(past2!)).toBe(true)
      expect([await sessionExists(next1!), await sessionExists(next2!)]).toEqual([false, false])
    })

    it("answers 404 for an unknown series and 403 to an athlete", async () => {
      expectProblem(await club().coach.delete(`/planning/series/${missingId}`), 404)
      const series = await aroundToday()
      expectProblem(await club().athlete.delete(`/planning/series/${series.id}`), 403)
      expectSeriesRead(await club().coach.get(`/planning/series/${series.id}`), series)
    })
  })

  describe("DELETE /planning/series/{id}/occurrences/{sessionId} (Coach)", () => {
    it("cancels one occurrence (the default scope); the others stay", async () => {
      const series = await aroundToday()
      const third = series.occurrences[2]!
      expect(
        (await callerFor(club(), series.coachId).delete(`/planning/series/${series.id}/occurrences/${third.sessionId}`))
          .status
      )
        .toBe(204)
      const read = (await club().coach.get(`/planning/series/${series.id}`)).body as SeriesDto
      expect(read.occurrences).toEqual([...series.occurrences.slice(0, 2), series.occurrences[3]])
    })

    it("with scope=following, cancels it and the later ones, and the series ends there", async () => {
      const series = await aroundToday()
      const third = series.occurrences[2]!
      const path = `/planning/series/${series.id}/occurrences/${third.sessionId}?scope=following`
      expect((await callerFor(club(), series.coachId).delete(path)).status).toBe(204)
      const read = (await club().coach.get(`/planning/series/${series.id}`)).body as SeriesDto
      expect(read.occurrences).toEqual(series.occurrences.slice(0, 2))
      expect(read).toMatchObject({ endsBefore: third.occurrenceStart })
    })

    it("answers 400 naming sessionId for an occurrence that has started, 404 for a session not of the series, 400 for an unknown scope", async () => {
      const series = await aroundToday()
      const past = series.occurrences[0]!.sessionId
      expectProblem(
        await callerFor(club(), series.coachId).delete(`/planning/series/${series.id}/occurrences/${past}`),
        400,
        /^sessionId: /u
      )
      expectProblem(
        await callerFor(club(), series.coachId).delete(`/planning/series/${series.id}/occurrences/${missingId}`),
        404
      )
      expectProblem(
        await callerFor(club(), series.coachId).delete(
          `/planning/series/${series.id}/occurrences/${series.occurrences[3]!.sessionId}?scope=all`
        ),
        400,
        /scope/u
      )
      expectSeriesRead(await club().coach.get(`/planning/series/${series.id}`), series)
    })
  })

  describe("GET /planning/conflicts (Admin, Coach)", () => {
    it("lists the pairs of sessions that book one coach or athlete at overlapping times, seed sessions included", async () => {
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const session = (creneau: string, duree: number, extra: Record<string, unknown>) =>
        club().coach.post("/session/create", { name: unique("Seed"), creneau, duree, ...extra })
      const first = (await session("2031-02-03T10:00:00", 60, { coachId: coach.id, athleteIds: [athlete.id] }))
        .body as { id: number }
      const second = (await session("2031-02-03T10:30:00", 60, { coachId: coach.id, athleteIds: [athlete.id] }))
        .body as { id: number }
      const backToBack = (await session("2031-02-03T11:30:00", 30, { coachId: coach.id })).body as { id: number }
      const pairs = await allConflicts(club())
      const involving = pairs.filter((pair) => [first.id, second.id, backToBack.id].includes(pair.sessionId))
      expect(involving).toEqual([
        { sessionId: first.id, otherSessionId: second.id, coachId: coach.id, athleteId: null },
        { sessionId: first.id, otherSessionId: second.id, coachId: null, athleteId: athlete.id }
      ])
      expect((await club().coach.get("/planning/conflicts")).status).toBe(200)
      expectProblem(await club().athlete.get("/planning/conflicts"), 403)
    })

    it("answers one bounded page at a time: limit, then the next from nextCursor, each pair once (issue 37)", async () => {
      const coach = await createCoach(club())
      const session = (creneau: string) =>
        club().coach.post("/session/create", { name: unique("Paged"), creneau, duree: 60, coachId: coach.id })
      // Three sessions of one coach overlapping each other: three pairs.
      const ids: Array<number> = []
      for (const creneau of ["2031-03-03T10:00:00", "2031-03-03T10:20:00", "2031-03-03T10:40:00"]) {
        ids.push(((await session(creneau)).body as { id: number }).id)
      }
      const seen: Array<[number | null, number | null]> = []
      let path = "/planning/conflicts?limit=1"
      let pages = 0
      for (; pages < 10_000; pages++) {
        const reply = await club().coach.get(path)
        expect(reply.status).toBe(200)
        const body = reply.body as { items: ReadonlyArray<Record<string, number | null>>; nextCursor: string | null }
        expect(body.items.length).toBeLessThanOrEqual(1)
        for (const pair of body.items) {
          if (pair["coachId"] === coach.id) seen.push([pair["sessionId"]!, pair["otherSessionId"]!])
        }
        if (body.nextCursor === null) break
        path = `/planning/conflicts?limit=1&cursor=${body.nextCursor}`
      }
      expect(seen).toEqual([[ids[0]!, ids[1]!], [ids[0]!, ids[2]!], [ids[1]!, ids[2]!]])
      expectProblem(await club().coach.get("/planning/conflicts?limit=0"), 400, /limit/u)
      expectProblem(await club().coach.get("/planning/conflicts?limit=501"), 400, /limit/u)
      expectProblem(await club().coach.get("/planning/conflicts?cursor=WzFd"), 400, /cursor/u)
    })
  })
}
