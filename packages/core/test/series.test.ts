import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  CurrentActor,
  ActivityRepository,
  ActivityWrite,
  InvalidValue,
  type LocalDateTime,
  SeriesCreate,
  SessionRepository
} from "../src/index.ts"
import { everOccurs, occurrencesOf, parseRecurrenceRule, type RecurrenceRule, SeriesService } from "../src/calendar.ts"
import { coach, seriesLayer as layer } from "./support/seriesHarness.ts"

/** 2026-03-20T12:00:00Z: a Friday, nine days before Europe/Paris moves to summer time. */
const now = Date.UTC(2026, 2, 20, 12, 0, 0)

const seriesInput = (fields: Partial<SeriesCreate> = {}) =>
  SeriesCreate.make({
    name: "Evening run",
    groupe: "U18",
    coachId: null,
    duree: 90,
    start: "2026-03-23T18:00:00" as LocalDateTime,
    rrule: "FREQ=WEEKLY;BYDAY=MO,TH",
    athleteIds: [],
    ...fields
  })

const run = <A, E>(
  effect: Effect.Effect<A, E, SeriesService | SessionRepository | ActivityRepository | CurrentActor>
) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(now)
    return yield* effect
  }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layer))

const rule = (text: string) => parseRecurrenceRule(text) as RecurrenceRule

describe("the recurrence subset", () => {
  it("reads FREQ, INTERVAL, BYDAY, COUNT and UNTIL", () => {
    expect(parseRecurrenceRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20270630")).toEqual({
      freq: "WEEKLY",
      interval: 2,
      byDay: ["TU", "TH"],
      count: undefined,
      until: "2027-06-30T23:59:59"
    })
  })

  for (
    const [text, reason] of [
      ["FREQ=MONTHLY", "FREQ must be DAILY or WEEKLY"],
      ["FREQ=WEEKLY;BYMONTH=3", "BYMONTH is outside the supported subset"],
      ["FREQ=WEEKLY;INTERVAL=0", "INTERVAL must be a positive integer"],
      ["FREQ=WEEKLY;BYDAY=1MO", "BYDAY must list weekday codes"],
      ["FREQ=DAILY;COUNT=3;UNTIL=20270101", "COUNT and UNTIL cannot both be given"],
      ["FREQ=DAILY;UNTIL=20270101T000000Z", "UNTIL must be a floating local date"],
      ["FREQ=DAILY;UNTIL=20270230", "UNTIL is not a real date"],
      ["INTERVAL=2", "FREQ must be DAILY or WEEKLY"]
    ] as const
  ) {
    it(`refuses ${text}`, () => {
      expect(parseRecurrenceRule(text)).toContain(reason)
    })
  }

  it("keeps the wall-clock time across the change to summer time in floating time", () => {
    // Europe/Paris moves from UTC+1 to UTC+2 on 2026-03-29.
    expect(occurrencesOf(rule("FREQ=DAILY;COUNT=3"), "2026-03-28T18:00:00" as LocalDateTime, { max: 10 })).toEqual([
      "2026-03-28T18:00:00",
      "2026-03-29T18:00:00",
      "2026-03-30T18:00:00"
    ])
  })
})

describe("SeriesService.create", () => {
  it.effect("creates a session per occurrence up to the horizon, at 18:00 on both sides of the DST change", () =>
    run(Effect.gen(function*() {
      const series = yield* Effect.flatMap(Effect.service(SeriesService), (s) => s.create(seriesInput()))
      // Now is 2026-03-20 13:00 in Paris; the horizon four weeks later is 2026-04-17T13:00:00.
      expect(series.expandedUntil).toBe("2026-04-17T13:00:00")
      expect(series.occurrences.map((o) => o.occurrenceStart)).toEqual([
        "2026-03-23T18:00:00",
        "2026-03-26T18:00:00",
        "2026-03-30T18:00:00",
        "2026-04-02T18:00:00",
        "2026-04-06T18:00:00",
        "2026-04-09T18:00:00",
        "2026-04-13T18:00:00",
        "2026-04-16T18:00:00"
      ])
      const sessions = yield* Effect.flatMap(Effect.service(SessionRepository), (r) => r.list())
      expect(sessions.map((s) => [s.id, s.creneau, s.isRecurrent, s.duree, s.name, s.groupe])).toEqual(
        series.occurrences.map((o) => [o.sessionId, o.occurrenceStart, true, 90, "Evening run", "U18"])
      )
    })))

  it.effect("extends to the moved horizon when read later, never creating an occurrence twice", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(seriesInput())
      yield* TestClock.adjust("7 days")
      const read = yield* service.read(created.id)
      const again = yield* service.read(created.id)
      expect(read.expandedUntil).toBe("2026-04-24T13:00:00")
      expect(read.occurrences.slice(0, created.occurrences.length)).toEqual(created.occurrences)
      expect(read.occurrences.map((o) => o.occurrenceStart).slice(created.occurrences.length)).toEqual([
        "2026-04-20T18:00:00",
        "2026-04-23T18:00:00"
      ])
      expect(again).toEqual(read)
      const sessions = yield* Effect.flatMap(Effect.service(SessionRepository), (r) => r.list())
      expect(sessions).toHaveLength(read.occurrences.length)
    })))

  it.effect("does not create again an occurrence whose session was deleted", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(seriesInput())
      yield* Effect.flatMap(Effect.service(SessionRepository), (r) => r.delete(created.occurrences[0]!.sessionId))
      yield* TestClock.adjust("7 days")
      const read = yield* service.read(created.id)
      expect(read.occurrences.map((o) => o.occurrenceStart)).not.toContain("2026-03-23T18:00:00")
      expect(read.occurrences).toHaveLength(created.occurrences.length - 1 + 2)
    })))

  const refused = (fields: Partial<SeriesCreate>, reason: string) =>
    it.effect(`refuses ${JSON.stringify(fields)}, naming rrule`, () =>
      run(Effect.gen(function*() {
        const error = yield* Effect.flip(
          Effect.flatMap(Effect.service(SeriesService), (s) => s.create(seriesInput(fields)))
        )
        expect(error).toBeInstanceOf(InvalidValue)
        expect((error as InvalidValue).field).toBe("rrule")
        expect((error as InvalidValue).reason).toContain(reason)
        expect(yield* Effect.flatMap(Effect.service(SessionRepository), (r) => r.list())).toEqual([])
      })))

  refused({ rrule: "FREQ=HOURLY" }, "FREQ must be DAILY or WEEKLY")
  refused({ rrule: "FREQ=DAILY;INTERVAL=0" }, "INTERVAL must be a positive integer")
  refused({ rrule: "FREQ=DAILY;UNTIL=20260301" }, "is before the start")
  refused({ rrule: "FREQ=DAILY;COUNT=51" }, "more than 50 occurrences")
  refused({ rrule: "FREQ=DAILY;UNTIL=20270101" }, "more than 50 occurrences")
  // 2026-03-24 is a Tuesday: every seventh day from it is a Tuesday, never a Monday.
  refused(
    { start: "2026-03-24T18:00:00" as LocalDateTime, rrule: "FREQ=DAILY;INTERVAL=7;BYDAY=MO" },
    "the rule gives no occurrence from the start"
  )
  refused({ start: "2026-05-04T18:00:00" as LocalDateTime, rrule: "FREQ=DAILY;COUNT=3" }, "is beyond the horizon")

  it.effect("refuses a rule that never occurs at once, without walking the calendar (issue 37)", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const started = Date.now()
      for (const rrule of ["FREQ=DAILY;INTERVAL=7;BYDAY=MO", "FREQ=DAILY;INTERVAL=14;BYDAY=WE,SU"]) {
        const error = yield* Effect.flip(
          service.create(seriesInput({ start: "2026-03-24T18:00:00" as LocalDateTime, rrule }))
        )
        expect((error as InvalidValue).field).toBe("rrule")
      }
      // Before the fix each took over a second of CPU (`rrule` walking to the year 9999).
      expect(Date.now() - started).toBeLessThan(200)
    })))
})

describe("everOccurs", () => {
  const tuesday = "2026-03-24T18:00:00" as LocalDateTime
  it("is false only for a DAILY rule every multiple of seven days that leaves out the start's weekday", () => {
    expect(everOccurs(rule("FREQ=DAILY;INTERVAL=7;BYDAY=MO"), tuesday)).toBe(false)
    expect(everOccurs(rule("FREQ=DAILY;INTERVAL=21;BYDAY=SA,SU"), tuesday)).toBe(false)
    expect(everOccurs(rule("FREQ=DAILY;INTERVAL=7;BYDAY=MO,TU"), tuesday)).toBe(true)
    expect(everOccurs(rule("FREQ=DAILY;INTERVAL=6;BYDAY=MO"), tuesday)).toBe(true)
    expect(everOccurs(rule("FREQ=WEEKLY;INTERVAL=7;BYDAY=MO"), tuesday)).toBe(true)
    expect(everOccurs(rule("FREQ=DAILY;INTERVAL=7"), tuesday)).toBe(true)
  })

  it("agrees with the days a DAILY rule visits, on every weekday and interval of up to two weeks", () => {
    const codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    for (let day = 0; day < 7; day++) {
      const start = `2026-03-${String(23 + day).padStart(2, "0")}T18:00:00` as LocalDateTime
      for (let interval = 1; interval <= 14; interval++) {
        for (const byDay of ["MO", "TU,SA", "SU"]) {
          const r = rule(`FREQ=DAILY;INTERVAL=${interval};BYDAY=${byDay}`)
          // The weekdays visited repeat after seven steps.
          const visited = Array.from(
            { length: 7 },
            (_, k) => codes[(Math.floor(Date.parse(`${start}Z`) / 86_400_000) + 4 + k * interval) % 7]
          )
          const found = visited.some((code) => byDay.split(",").includes(code!))
          expect([start, interval, byDay, everOccurs(r, start)]).toEqual([start, interval, byDay, found])
        }
      }
    }
  })
})

describe("SeriesService cancellations", () => {
  /** Now (2026-03-20 13:00 in Paris) falls between the occurrences of 2026-03-19 and 2026-03-23. */
  const started = seriesInput({ start: "2026-03-16T18:00:00" as LocalDateTime })
  const times = (series: { readonly occurrences: ReadonlyArray<{ readonly occurrenceStart: string }> }) =>
    series.occurrences.map((o) => o.occurrenceStart)

  it.effect("cancel: the occurrences not started go, the past ones and their activities stay, and none is created later", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(started)
      const past = created.occurrences[0]!.sessionId
      const activity = yield* Effect.flatMap(
        Effect.service(ActivityRepository),
        (r) =>
          r.create(new ActivityWrite({ name: "warm-up", theme: null, duree: 10, dataActivite: [], sessionId: past }))
      )
      yield* service.cancel(created.id)
      yield* TestClock.adjust("14 days")
      const read = yield* service.read(created.id)
      expect(times(read)).toEqual(["2026-03-16T18:00:00", "2026-03-19T18:00:00"])
      expect(read.occurrences).toEqual(created.occurrences.slice(0, 2))
      const sessions = yield* Effect.flatMap(Effect.service(SessionRepository), (r) => r.list())
      expect(sessions.map((s) => s.id)).toEqual(created.occurrences.slice(0, 2).map((o) => o.sessionId))
      expect(sessions[0]!.activiteIds).toEqual([activity.id])
    })))

  it.effect("cancel one: that occurrence goes and is never created again; the others stay", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(started)
      const third = created.occurrences[2]!
      yield* service.cancelOccurrence(created.id, third.sessionId, "one")
      yield* TestClock.adjust("7 days")
      const read = yield* service.read(created.id)
      expect(times(read)).not.toContain(third.occurrenceStart)
      expect(read.occurrences.slice(0, 2)).toEqual(created.occurrences.slice(0, 2))
      expect(read.occurrences.slice(2, created.occurrences.length - 1)).toEqual(created.occurrences.slice(3))
      expect(read.occurrences.length).toBe(created.occurrences.length - 1 + 2)
    })))

  it.effect("cancel following: that occurrence and the later ones go, the series ends there, earlier ones stay", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(started)
      const fourth = created.occurrences[3]!
      yield* service.cancelOccurrence(created.id, fourth.sessionId, "following")
      yield* TestClock.adjust("21 days")
      const read = yield* service.read(created.id)
      expect(read.occurrences).toEqual(created.occurrences.slice(0, 3))
      expect(read.endsBefore).toBe(fourth.occurrenceStart)
    })))

  it.effect("refuses to cancel an occurrence that has started, naming sessionId; nothing changes", () =>
    run(Effect.gen(function*() {
      const service = yield* SeriesService
      const created = yield* service.create(started)
      const error = yield* Effect.flip(
        service.cancelOccurrence(created.id, created.occurrences[1]!.sessionId, "following")
      )
      expect(error).toBeInstanceOf(InvalidValue)
      expect((error as InvalidValue).field).toBe("sessionId")
      expect(yield* service.read(created.id)).toEqual(created)
    })))
})
