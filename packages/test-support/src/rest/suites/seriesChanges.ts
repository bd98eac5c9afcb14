import ICAL from "ical.js"
import { describe, expect, it } from "vitest"
import { expectEmpty, expectProblem } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import {
  callerFor,
  createActivity,
  createAthlete,
  createCoachMember as createCoach,
  missingId,
  readSession,
  unique
} from "../records.ts"
import type { Caller } from "../Club.ts"
import { expectSameSeries } from "./sameSeries.ts"

interface OccurrenceDto {
  readonly sessionId: number
  readonly occurrenceStart: string
  readonly overridden: boolean
}

interface SeriesDto {
  readonly id: number
  readonly name: string | null
  readonly coachId: number | null
  readonly athleteIds: ReadonlyArray<number>
  readonly duree: number
  readonly start: string
  readonly rrule: string
  readonly expandedUntil: string
  readonly endsBefore: string | null
  readonly continuedBy: number | null
  readonly revision: number
  readonly occurrences: ReadonlyArray<OccurrenceDto>
}

/** The date `days` from today (UTC, the harness's club zone), at `time`. */
const fromToday = (days: number, time: string) =>
  `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`

/**
 * A feed's instances as a calendar app computes them with ical.js: every series expanded (RRULE,
 * EXDATE, RECURRENCE-ID), each instance's start and end as instants, its summary, status and
 * sequence, in time order.
 */
const expandedInstances = (text: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(new ICAL.Timezone(zone))
  const events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component))
  const masters = events.filter((event) => !event.isRecurrenceException())
  for (const exception of events.filter((event) => event.isRecurrenceException())) {
    masters.find((master) => master.uid === exception.uid)?.relateException(exception)
  }
  const out: Array<{ start: string; end: string; summary: string; status: string | null; sequence: number }> = []
  const add = (start: ICAL.Time, end: ICAL.Time, item: ICAL.Event) =>
    out.push({
      start: start.toJSDate().toISOString(),
      end: end.toJSDate().toISOString(),
      summary: item.summary,
      status: (item.component.getFirstPropertyValue("status") as string | null) ?? null,
      sequence: item.sequence
    })
  for (const master of masters) {
    if (!master.isRecurring()) {
      add(master.startDate, master.endDate, master)
      continue
    }
    const iterator = master.iterator()
    for (
      let next = iterator.next(), n = 0;
      next !== undefined && next !== null && n < 500;
      next = iterator.next(), n++
    ) {
      const details = master.getOccurrenceDetails(next)
      add(details.startDate, details.endDate, details.item)
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start))
}

/** The instances a calendar app shows as taking place: start, end and summary, the cancelled ones left out. */
const feedInstances = (text: string) =>
  expandedInstances(text).filter((i) => i.status !== "CANCELLED").map(({ end, start, summary }) => ({
    start,
    end,
    summary
  }))

/** The instances cancelled (STATUS:CANCELLED at their RECURRENCE-ID): start and sequence. */
const cancelledInstances = (text: string) =>
  expandedInstances(text).filter((i) => i.status === "CANCELLED").map(({ sequence, start }) => ({ start, sequence }))

/** Issue 17's changes of series and occurrences (`PATCH /planning/series/...`), on any harness. */
export const seriesChanges = (club: () => Club) => {
  /**
   * Who coaches each series and session written here (`series:7`, `session:9`): a coach acts on
   * its own (issue 36), so each request goes out as the coach of what it names.
   */
  const owners = new Map<string, number>()
  const ownerOf = (path: string): Caller => {
    const [, kind, id] = /^\/planning\/(series|sessions)\/(\d+)/u.exec(path) ?? []
    return callerFor(club(), owners.get(`${kind === "series" ? "series" : "session"}:${id}`))
  }
  const remember = (series: SeriesDto) => {
    owners.set(`series:${series.id}`, series.coachId!)
    for (const occurrence of series.occurrences) owners.set(`session:${occurrence.sessionId}`, series.coachId!)
  }
  /** A series of a coach of its own (a new one unless `coachId` is given), so that series of different tests never meet. */
  const createSeries = async (body: Record<string, unknown>) => {
    const coachId = (body["coachId"] as number | undefined) ?? (await createCoach(club())).id
    const reply = await callerFor(club(), coachId).post("/planning/series", {
      name: unique("Series"),
      ...body,
      coachId
    })
    expect(reply.status, reply.text).toBe(201)
    remember(reply.body as SeriesDto)
    return reply.body as SeriesDto
  }
  const readSeries = async (id: number) => (await club().coach.get(`/planning/series/${id}`)).body as SeriesDto
  const patch = async (path: string, json: unknown, caller = ownerOf(path)) => {
    const reply = await caller.send("PATCH", path, { json })
    const body = reply.body as Partial<SeriesDto> & { id?: number; coachId?: number | null }
    if (reply.status === 200 && body.occurrences !== undefined) remember(body as SeriesDto)
    else if (reply.status === 200 && body.coachId !== undefined) owners.set(`session:${body.id}`, body.coachId!)
    return reply
  }
  const del = (path: string) => ownerOf(path).delete(path)
  /** Four daily occurrences at 06:00 from `firstDay` days from today. */
  const daily = (firstDay: number, extra: Record<string, unknown> = {}) =>
    createSeries({ duree: 60, start: fromToday(firstDay, "06:00:00"), rrule: "FREQ=DAILY;COUNT=4", ...extra })
  /** Two occurrences days ago, two in the days to come (never today, whatever the hour): days -3, -1, 1, 3. */
  const aroundToday = () =>
    createSeries({ duree: 60, start: fromToday(-3, "06:00:00"), rrule: "FREQ=DAILY;INTERVAL=2;COUNT=4" })

  describe("PATCH /planning/series/{id} (Coach)", () => {
    it("changes a series that has not started in place: every occurrence takes the values, the revisions go up", async () => {
      const series = await daily(3)
      const coach = await createCoach(club())
      const reply = await patch(`/planning/series/${series.id}`, {
        name: "Renamed",
        duree: 45,
        coachId: coach.id,
        time: "07:30:00"
      })
      expect(reply.status, reply.text).toBe(200)
      const changed = reply.body as SeriesDto
      expect(changed).toMatchObject({
        id: series.id,
        name: "Renamed",
        duree: 45,
        coachId: coach.id,
        start: fromToday(3, "07:30:00"),
        continuedBy: null,
        revision: 1
      })
      expect(changed.occurrences.map((o) => o.sessionId)).toEqual(series.occurrences.map((o) => o.sessionId))
      expect(changed.occurrences.map((o) => o.occurrenceStart)).toEqual(
        [3, 4, 5, 6].map((day) => fromToday(day, "07:30:00"))
      )
      for (const occurrence of changed.occurrences) {
        expect(await readSession(club(), occurrence.sessionId)).toMatchObject({
          name: "Renamed",
          duree: 45,
          coachId: coach.id,
          creneau: occurrence.occurrenceStart
        })
      }
    })

    it("with past occurrences: they and their activities stay, and a new series continues from the next one", async () => {
      const series = await aroundToday()
      const [past1, past2, next1, next2] = series.occurrences
      const activity = await createActivity(club(), past1!.sessionId)
      const reply = await patch(`/planning/series/${series.id}`, { name: "Continued", time: "08:00:00" })
      expect(reply.status, reply.text).toBe(200)
      const continued = reply.body as SeriesDto
      expect(continued.id).not.toBe(series.id)
      expect(continued).toMatchObject({
        name: "Continued",
        start: fromToday(1, "08:00:00"),
        rrule: "FREQ=DAILY;INTERVAL=2;COUNT=2",
        continuedBy: null
      })
      expect(continued.occurrences.map((o) => [o.sessionId, o.occurrenceStart])).toEqual([
        [next1!.sessionId, fromToday(1, "08:00:00")],
        [next2!.sessionId, fromToday(3, "08:00:00")]
      ])
      const ended = await readSeries(series.id)
      expect(ended).toMatchObject({ endsBefore: next1!.occurrenceStart, continuedBy: continued.id, name: series.name })
      expect(ended.occurrences).toEqual([past1, past2])
      expect(await readSession(club(), past1!.sessionId)).toMatchObject({
        name: series.name,
        creneau: past1!.occurrenceStart,
        activiteIds: [activity]
      })
      expect(await readSession(club(), next1!.sessionId)).toMatchObject({
        name: "Continued",
        creneau: fromToday(1, "08:00:00")
      })
      // The ended series has nothing to come: a change of it names its continuation.
      expectProblem(
        await patch(`/planning/series/${series.id}`, { name: "Again" }),
        400,
        `id: the series has no occurrence to come; it continues as series ${continued.id}`
      )
    })

    it("leaves an occurrence changed by itself as it is, and a cancelled one cancelled", async () => {
      const series = await daily(3)
      const [first, second, third, fourth] = series.occurrences
      const moved = fromToday(4, "19:00:00")
      const one = await patch(`/planning/series/${series.id}/occurrences/${second!.sessionId}`, {
        creneau: moved,
        name: "Moved"
      })
      expect(one.status, one.text).toBe(200)
      expect((one.body as SeriesDto).occurrences[1]).toEqual({ ...second, overridden: true })
      expect((await del(`/planning/series/${series.id}/occurrences/${third!.sessionId}`)).status)
        .toBe(204)
      const all = await patch(`/planning/series/${series.id}`, { name: "All", duree: 30 })
      expect(all.status, all.text).toBe(200)
      const read = all.body as SeriesDto
      expect(read.occurrences.map((o) => o.sessionId)).toEqual([first, second, fourth].map((o) => o!.sessionId))
      expect(await readSession(club(), second!.sessionId)).toMatchObject({ name: "Moved", creneau: moved, duree: 60 })
      expect(await readSession(club(), fourth!.sessionId)).toMatchObject({ name: "All", duree: 30 })
    })

    it("leaves an occurrence changed through the seed's PUT /session/update as it is: it is an exception too", async () => {
      const series = await daily(3)
      const [, second, third] = series.occurrences
      expectEmpty(await club().coach.put(`/session/update/${second!.sessionId}`, { duree: 45 }), 204)
      const read = await readSeries(series.id)
      expect(read.occurrences[1]).toEqual({ ...second, overridden: true })
      const all = await patch(`/planning/series/${series.id}`, { duree: 30 })
      expect(all.status, all.text).toBe(200)
      expect(await readSession(club(), second!.sessionId)).toMatchObject({ duree: 45 })
      expect(await readSession(club(), third!.sessionId)).toMatchObject({ duree: 30 })
    })

    it("answers 409 naming the sessions when the change would double-book the coach; nothing is written", async () => {
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const other = await createSeries({
        coachId: coach.id,
        duree: 60,
        start: fromToday(5, "10:00:00"),
        rrule: "FREQ=DAILY;COUNT=1"
      })
      const series = await daily(3, { athleteIds: [athlete.id] })
      const reply = await patch(`/planning/series/${series.id}`, { coachId: coach.id, time: "09:30:00" })
      expectProblem(
        reply,
        409,
        `Double booking: the coach or an athlete is already booked at an overlapping time in session ${
          other.occurrences[0]!.sessionId
        }`
      )
      expectSameSeries(await readSeries(series.id), series)
      for (const occurrence of series.occurrences) {
        expect(await readSession(club(), occurrence.sessionId)).toMatchObject({
          coachId: series.coachId,
          creneau: occurrence.occurrenceStart
        })
      }
      // The same change one occurrence at a time: the clash is only on day 5.
      const [, , third] = series.occurrences
      expectProblem(
        await patch(`/planning/series/${series.id}/occurrences/${third!.sessionId}`, {
          coachId: coach.id,
          time: "10:30:00"
        }),
        409
      )
      expect(
        (await patch(`/planning/series/${series.id}/occurrences/${third!.sessionId}`, {
          coachId: coach.id,
          time: "11:00:00"
        })).status
      ).toBe(200)
    })

    it("answers 400 naming the field on bad input, 404 for an unknown series, 403 to an athlete", async () => {
      const series = await daily(3)
      const path = `/planning/series/${series.id}`
      expectProblem(await patch(path, { time: "25:00:00" }), 400, /time/u)
      expectProblem(await patch(path, { duree: 0 }), 400, /duree/u)
      expectProblem(await patch(path, { athleteIds: [missingId] }), 400, /^athleteIds: /u)
      expectProblem(await patch(path, { coachId: missingId }), 400, /^coachId: /u)
      expectProblem(await patch(`/planning/series/${missingId}`, { name: "x" }), 404)
      expectProblem(await patch(path, { name: "x" }, club().athlete), 403)
      expectSameSeries(await readSeries(series.id), series)
    })
  })

  describe("a coach's calendar feed of a series (GET /planning/feeds/{token}/coach/{id}.ics)", () => {
    it("is one recurring event whose instances, expanded by ical.js, are the stored sessions, after a change and a cancel", async () => {
      const coach = await createCoach(club())
      const series = await daily(3, { coachId: coach.id, name: "Feed run" })
      const issued = (await club().coach.post("/planning/feed-token")).body as { coachPattern: string }
      const path = issued.coachPattern.replace("{id}", String(coach.id))
      /** The coach's sessions as instants (the harness's club zone is UTC). */
      const stored = async () => {
        const all = (await club().coach.get("/session/all")).body as ReadonlyArray<
          { coachId: number | null; creneau: string; duree: number; name: string }
        >
        return all.filter((session) => session.coachId === coach.id).map((session) => ({
          start: new Date(`${session.creneau}Z`).toISOString(),
          end: new Date(Date.parse(`${session.creneau}Z`) + session.duree * 60_000).toISOString(),
          summary: session.name
        })).sort((a, b) => a.start.localeCompare(b.start))
      }
      const first = await club().anonymous.get(path)
      expect(first.status).toBe(200)
      expect(first.text).toContain(`UID:series-${series.id}@club-training-service`)
      expect(first.text).toMatch(/^RRULE:FREQ=DAILY;UNTIL=/mu)
      expect(feedInstances(first.text)).toEqual(await stored())
      const etag = first.headers.get("etag")!

      const [, second, third] = series.occurrences
      await patch(`/planning/series/${series.id}/occurrences/${second!.sessionId}`, { name: "Moved", time: "09:00:00" })
      const moved = await club().anonymous.get(path, { headers: { "if-none-match": etag } })
      expect(moved.status).toBe(200)
      expect((await del(`/planning/series/${series.id}/occurrences/${third!.sessionId}`)).status)
        .toBe(204)
      // The cancel alone moves the ETag; the cancelled occurrence is STATUS:CANCELLED at its
      // RECURRENCE-ID, its SEQUENCE above the series' (0); no EXDATE is left.
      const edited = await club().anonymous.get(path, { headers: { "if-none-match": moved.headers.get("etag")! } })
      expect(edited.status).toBe(200)
      expect(edited.text).toMatch(/^RECURRENCE-ID/mu)
      expect(edited.text).toMatch(/^STATUS:CANCELLED\r?$/mu)
      expect(edited.text).not.toMatch(/^EXDATE/mu)
      expect(cancelledInstances(edited.text)).toEqual([
        { start: new Date(`${third!.occurrenceStart}Z`).toISOString(), sequence: 1 }
      ])
      expect(feedInstances(edited.text)).toEqual(await stored())
      // The seed's endpoints do not show the cancelled session: it stays deleted.
      expect((await club().coach.get(`/session/${third!.sessionId}`)).status).toBe(404)

      // The series' own change moves the ETag, and the instances follow.
      const before = edited.headers.get("etag")!
      expect((await patch(`/planning/series/${series.id}`, { name: "Renamed" })).status).toBe(200)
      const renamed = await club().anonymous.get(path, { headers: { "if-none-match": before } })
      expect(renamed.status).toBe(200)
      expect(feedInstances(renamed.text)).toEqual(await stored())
      expect(feedInstances(renamed.text).map((i) => i.summary)).toEqual(["Renamed", "Moved", "Renamed"])
      // Still above the series' SEQUENCE, now 1.
      expect(cancelledInstances(renamed.text)).toEqual([
        { start: new Date(`${third!.occurrenceStart}Z`).toISOString(), sequence: 2 }
      ])
      const unchanged = await club().anonymous.get(path, { headers: { "if-none-match": renamed.headers.get("etag")! } })
      expect(unchanged.status).toBe(304)
    })

    it("shows a cancelled occurrence only where it was: elsewhere its time stays an EXDATE; `following` ends the rule", async () => {
      const groupe = unique("Cancel group")
      const series = await createSeries({
        duree: 60,
        start: fromToday(3, "06:00:00"),
        rrule: "FREQ=DAILY;COUNT=5",
        groupe
      })
      const [, second, third, fourth, fifth] = series.occurrences
      const issued = (await club().coach.post("/planning/feed-token")).body as { groupPattern: string }
      const path = issued.groupPattern.replace("{groupe}", encodeURIComponent(groupe))
      const stored = async () => {
        const all = (await club().coach.get("/session/all")).body as ReadonlyArray<
          { groupe: string | null; creneau: string; duree: number; name: string }
        >
        return all.filter((session) => session.groupe === groupe).map((session) => ({
          start: new Date(`${session.creneau}Z`).toISOString(),
          end: new Date(Date.parse(`${session.creneau}Z`) + session.duree * 60_000).toISOString(),
          summary: session.name
        })).sort((a, b) => a.start.localeCompare(b.start))
      }
      // The second occurrence goes to another group, then is cancelled: not this feed's.
      const other = await patch(`/planning/series/${series.id}/occurrences/${second!.sessionId}`, {
        groupe: unique("Other group")
      })
      expect(other.status, other.text).toBe(200)
      for (const occurrence of [second, third]) {
        const cancelled = await del(
          `/planning/series/${series.id}/occurrences/${occurrence!.sessionId}`
        )
        expect(cancelled.status).toBe(204)
      }
      const reply = await club().anonymous.get(path)
      expect(reply.status).toBe(200)
      expect(reply.text).toMatch(/^EXDATE/mu)
      expect(cancelledInstances(reply.text).map((i) => i.start)).toEqual([
        new Date(`${third!.occurrenceStart}Z`).toISOString()
      ])
      expect(feedInstances(reply.text)).toEqual(await stored())

      // "This and the following" ends the series (UNTIL): no STATUS:CANCELLED entry for what it ends.
      const following = await del(
        `/planning/series/${series.id}/occurrences/${fourth!.sessionId}?scope=following`
      )
      expect(following.status).toBe(204)
      const ended = await club().anonymous.get(path, { headers: { "if-none-match": reply.headers.get("etag")! } })
      expect(ended.status).toBe(200)
      expect(feedInstances(ended.text)).toEqual(await stored())
      // The one cancelled before stays, its SEQUENCE above the ended series' (now 1).
      expect(cancelledInstances(ended.text)).toEqual([
        { start: new Date(`${third!.occurrenceStart}Z`).toISOString(), sequence: 2 }
      ])
      const starts = expandedInstances(ended.text).map((i) => i.start)
      expect(starts).not.toContain(new Date(`${fourth!.occurrenceStart}Z`).toISOString())
      expect(starts).not.toContain(new Date(`${fifth!.occurrenceStart}Z`).toISOString())
    })
  })

  describe("PATCH /planning/series/{id}/occurrences/{sessionId} (Coach)", () => {
    it("with scope=following, changes it and the later ones; the earlier ones stay", async () => {
      const series = await daily(3)
      const [first, second, third, fourth] = series.occurrences
      const reply = await patch(
        `/planning/series/${series.id}/occurrences/${third!.sessionId}?scope=following`,
        { name: "Later", time: "05:00:00" }
      )
      expect(reply.status, reply.text).toBe(200)
      const continued = reply.body as SeriesDto
      expect(continued).toMatchObject({ name: "Later", rrule: "FREQ=DAILY;COUNT=2", start: fromToday(5, "05:00:00") })
      expect(continued.occurrences.map((o) => o.sessionId)).toEqual([third!.sessionId, fourth!.sessionId])
      const ended = await readSeries(series.id)
      expect(ended.occurrences).toEqual([first, second])
      expect(ended.continuedBy).toBe(continued.id)
      expect(await readSession(club(), first!.sessionId)).toMatchObject({ name: series.name })
      expect(await readSession(club(), fourth!.sessionId)).toMatchObject({
        name: "Later",
        creneau: fromToday(6, "05:00:00")
      })
    })

    it("answers 400 naming the field: a started occurrence, creneau with scope=following, a time not to come", async () => {
      const series = await aroundToday()
      const [past, , next] = series.occurrences
      const base = `/planning/series/${series.id}/occurrences`
      expectProblem(await patch(`${base}/${past!.sessionId}`, { name: "x" }), 400, /^sessionId: /u)
      expectProblem(
        await patch(`${base}/${next!.sessionId}?scope=following`, { creneau: fromToday(2, "10:00:00") }),
        400,
        /^creneau: /u
      )
      expectProblem(
        await patch(`${base}/${next!.sessionId}`, { creneau: fromToday(-5, "10:00:00") }),
        400,
        /^creneau: /u
      )
      expectProblem(await patch(`${base}/${missingId}`, { name: "x" }), 404)
      expectProblem(await patch(`${base}/${next!.sessionId}?scope=all`, { name: "x" }), 400, /scope/u)
      expectSameSeries(await readSeries(series.id), series)
    })
  })

  describe("POST /planning/sessions and PATCH /planning/sessions/{id} (Coach)", () => {
    const plan = async (body: Record<string, unknown>, caller = callerFor(club(), body["coachId"])) => {
      const reply = await caller.post("/planning/sessions", { name: unique("Planned"), ...body })
      const created = reply.body as { id: number; coachId: number | null }
      if (reply.status === 201) owners.set(`session:${created.id}`, created.coachId!)
      return reply
    }

    it("creates a session that books its coach and athletes: an overlapping one is a 409 naming it, and nothing is written", async () => {
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const reply = await plan({
        coachId: coach.id,
        athleteIds: [athlete.id],
        creneau: "2033-01-10T18:00:00",
        duree: 60
      })
      expect(reply.status, reply.text).toBe(201)
      const first = reply.body as { id: number; name: string }
      expect(await readSession(club(), first.id)).toEqual({
        id: first.id,
        name: first.name,
        isRecurrent: false,
        creneau: "2033-01-10T18:00:00",
        duree: 60,
        groupe: null,
        coachId: coach.id,
        athleteIds: [athlete.id],
        activiteIds: []
      })
      const name = unique("Clash")
      expectProblem(
        await plan({ name, athleteIds: [athlete.id], creneau: "2033-01-10T18:59:00", duree: 10 }),
        409,
        `Double booking: the coach or an athlete is already booked at an overlapping time in session ${first.id}`
      )
      const all = (await club().coach.get("/session/all")).body as ReadonlyArray<{ name: string }>
      expect(all.filter((session) => session.name === name)).toEqual([])
      expect((await plan({ coachId: coach.id, creneau: "2033-01-10T19:00:00", duree: 30 })).status).toBe(201)
    })

    it("changes a session with its bookings: into a double booking is a 409 and changes nothing; an occurrence becomes an exception", async () => {
      const coach = await createCoach(club())
      const held = (await plan({ coachId: coach.id, creneau: "2033-02-07T10:00:00", duree: 60 })).body as { id: number }
      const other = (await plan({ creneau: "2033-02-07T08:00:00", duree: 60 })).body as { id: number }
      const before = await readSession(club(), other.id)
      expectProblem(
        await patch(`/planning/sessions/${other.id}`, { coachId: coach.id, creneau: "2033-02-07T10:30:00" }),
        409,
        new RegExp(`in session ${held.id}$`, "u")
      )
      expect(await readSession(club(), other.id)).toEqual(before)
      const moved = await patch(`/planning/sessions/${other.id}`, { coachId: coach.id, creneau: "2033-02-07T11:00:00" })
      expect(moved.status, moved.text).toBe(200)
      expect(moved.body).toEqual({ ...before, coachId: coach.id, creneau: "2033-02-07T11:00:00" })
      // The time it left is free again.
      expect((await plan({ coachId: coach.id, creneau: "2033-02-07T08:00:00", duree: 60 })).status).toBe(201)

      const series = await daily(3)
      const occurrence = series.occurrences[1]!
      expect((await patch(`/planning/sessions/${occurrence.sessionId}`, { name: "Own" })).status).toBe(200)
      expect((await readSeries(series.id)).occurrences[1]).toEqual({ ...occurrence, overridden: true })
    })

    it("answers 400 naming the field, 404 for an unknown session, 403 to an athlete", async () => {
      expectProblem(await plan({ duree: 60 }), 400, /creneau/u)
      expectProblem(await plan({ creneau: "2033-03-01T10:00:00", duree: 0 }), 400, /duree/u)
      expectProblem(
        await plan({ creneau: "2033-03-01T10:00:00", duree: 30, athleteIds: [missingId] }),
        400,
        /^athleteIds: /u
      )
      expectProblem(await plan({ creneau: "2033-03-01T10:00:00", duree: 30 }, club().athlete), 403)
      expectProblem(await patch(`/planning/sessions/${missingId}`, { name: "x" }), 404)
      const session = (await plan({ creneau: "2033-03-01T10:00:00", duree: 30 })).body as { id: number }
      expectProblem(await patch(`/planning/sessions/${session.id}`, { creneau: "tomorrow" }), 400, /creneau/u)
      expectProblem(await patch(`/planning/sessions/${session.id}`, { name: "x" }, club().athlete), 403)
    })
  })
}
