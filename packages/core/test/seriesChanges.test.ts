import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { CurrentActor, type LocalDateTime, OccurrenceChange, SeriesChange, SeriesCreate } from "../src/index.ts"
import { SeriesService } from "../src/calendar.ts"
import { coach, seriesLayer as layer } from "./support/seriesHarness.ts"

/** A daily series at 18:00 from 2026-03-23 with `rrule`, changed to 19:15 on 2026-03-25 at noon. */
const changedTime = (rrule: string) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.UTC(2026, 2, 20, 12, 0, 0))
    const series = yield* SeriesService
    const created = yield* series.create(SeriesCreate.make({
      name: "Daily",
      groupe: null,
      coachId: null,
      duree: 60,
      start: "2026-03-23T18:00:00" as LocalDateTime,
      rrule,
      athleteIds: []
    }))
    yield* TestClock.setTime(Date.UTC(2026, 2, 25, 12, 0, 0))
    const continued = yield* series.change(created.id, SeriesChange.make({ time: "19:15:00" }))
    return { created, continued, ended: yield* series.read(created.id) }
  }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layer))

describe("a change of a series' time of day from an occurrence on", () => {
  it.effect("continues a COUNT with what is left, from the next occurrence, at the new time", () =>
    Effect.gen(function*() {
      // 2026-03-25T12:00Z is 13:00 in Paris: the next occurrence is that day's, at 18:00.
      const { continued, created, ended } = yield* changedTime("FREQ=DAILY;COUNT=6")
      expect(continued.rrule).toBe("FREQ=DAILY;COUNT=4")
      expect(continued.start).toBe("2026-03-25T19:15:00")
      expect(continued.occurrences.map((o) => o.occurrenceStart)).toEqual([
        "2026-03-25T19:15:00",
        "2026-03-26T19:15:00",
        "2026-03-27T19:15:00",
        "2026-03-28T19:15:00"
      ])
      expect(continued.occurrences.map((o) => o.sessionId)).toEqual(
        created.occurrences.slice(2).map((o) => o.sessionId)
      )
      expect(ended.occurrences).toEqual(created.occurrences.slice(0, 2))
      expect(ended).toMatchObject({ endsBefore: "2026-03-25T18:00:00", continuedBy: continued.id })
    }))

  it.effect("moves a date-time UNTIL with the occurrences, and keeps a date-only one", () =>
    Effect.gen(function*() {
      const withTime = yield* changedTime("FREQ=DAILY;UNTIL=20260330T180000")
      expect(withTime.continued.rrule).toBe("FREQ=DAILY;UNTIL=20260330T191500")
      expect(withTime.continued.occurrences.at(-1)?.occurrenceStart).toBe("2026-03-30T19:15:00")
      const dateOnly = yield* changedTime("FREQ=DAILY;UNTIL=20260330")
      expect(dateOnly.continued.rrule).toBe("FREQ=DAILY;UNTIL=20260330")
      expect(dateOnly.continued.occurrences.at(-1)?.occurrenceStart).toBe("2026-03-30T19:15:00")
    }))

  it.effect("refuses a time that would move the next occurrence into the past, naming time", () =>
    Effect.gen(function*() {
      // 13:00 in Paris: the next occurrence is today at 18:00, and 09:00 today has passed.
      yield* TestClock.setTime(Date.UTC(2026, 2, 25, 12, 0, 0))
      const series = yield* SeriesService
      const created = yield* series.create(SeriesCreate.make({
        name: "Today",
        groupe: null,
        coachId: null,
        duree: 30,
        start: "2026-03-25T18:00:00" as LocalDateTime,
        rrule: "FREQ=DAILY;COUNT=2",
        athleteIds: []
      }))
      const error = yield* Effect.flip(series.change(created.id, SeriesChange.make({ time: "09:00:00" })))
      expect(error).toMatchObject({ _tag: "InvalidValue", field: "time" })
      expect(yield* series.read(created.id)).toEqual(created)
    }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layer)))

  it.effect("leaves an occurrence moved earlier by itself alone once its own time has passed", () =>
    Effect.gen(function*() {
      // Wednesday 2026-03-25, 13:00 in Paris.
      yield* TestClock.setTime(Date.UTC(2026, 2, 25, 12, 0, 0))
      const series = yield* SeriesService
      const created = yield* series.create(SeriesCreate.make({
        name: "Fridays",
        groupe: null,
        coachId: null,
        duree: 60,
        start: "2026-03-27T18:00:00" as LocalDateTime,
        rrule: "FREQ=WEEKLY;COUNT=2",
        athleteIds: []
      }))
      const friday = created.occurrences[0]!
      yield* series.changeOccurrence(
        created.id,
        friday.sessionId,
        "one",
        OccurrenceChange.make({ creneau: "2026-03-26T10:00:00" as LocalDateTime })
      )
      // Thursday 12:00 in Paris: the moved session has taken place, though its rule's time is to come.
      yield* TestClock.setTime(Date.UTC(2026, 2, 26, 11, 0, 0))
      const error = yield* Effect.flip(
        series.changeOccurrence(created.id, friday.sessionId, "one", OccurrenceChange.make({ name: "Late" }))
      )
      expect(error).toMatchObject({ _tag: "InvalidValue", field: "sessionId" })
    }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layer)))
})
