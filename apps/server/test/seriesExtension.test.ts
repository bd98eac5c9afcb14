import { type LocalDateTime, ScheduleSettings, SeriesCreate, SeriesRepository } from "@club/core"
import { InMemoryRepositories } from "@club/core/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { SeriesExtensionLive } from "../src/planning/SeriesExtension.ts"

const settings = { timeZone: "Europe/Paris", horizonWeeks: 1, maxOccurrences: 500 }

/** A daily series at 09:00 from 2026-01-05, its occurrences created up to `expandedUntil`. */
const dailySeries = (name: string, occurrences: ReadonlyArray<string>, expandedUntil: string) =>
  Effect.flatMap(SeriesRepository, (repository) =>
    repository.create(
      new SeriesCreate({
        name,
        groupe: null,
        coachId: null,
        duree: 60,
        start: "2026-01-05T09:00:00" as LocalDateTime,
        rrule: "FREQ=DAILY",
        athleteIds: []
      }),
      occurrences as ReadonlyArray<LocalDateTime>,
      expandedUntil as LocalDateTime
    ))

const lastOccurrence = (id: number) =>
  Effect.map(
    Effect.flatMap(SeriesRepository, (repository) => repository.findById(id as never)),
    (found) => Option.getOrThrow(found).occurrences.at(-1)?.occurrenceStart
  )

describe("the server's periodic extension of series", () => {
  it.effect("extends series nobody reads at start and at every round, a full batch followed by another", () =>
    Effect.gen(function*() {
      // 2026-01-05T08:00:00Z is 09:00 in Paris: the horizon is a week later.
      yield* TestClock.setTime(Date.UTC(2026, 0, 5, 8, 0, 0))
      const a = yield* dailySeries("a", ["2026-01-05T09:00:00"], "2026-01-05T10:00:00")
      const b = yield* dailySeries("b", ["2026-01-05T09:00:00"], "2026-01-05T10:00:00")
      yield* Layer.build(SeriesExtensionLive({ every: "1 hour", batch: 1 }))
      yield* TestClock.adjust("1 second")
      // The first round: both series (one a batch) up to now + a week.
      expect(yield* lastOccurrence(a.id)).toBe("2026-01-12T09:00:00")
      expect(yield* lastOccurrence(b.id)).toBe("2026-01-12T09:00:00")
      // Three days later, with no read of either.
      // An hour at a time, letting each round finish and sleep again before the clock moves on.
      for (let hour = 0; hour < 72; hour++) {
        yield* TestClock.adjust("1 hour")
        for (let turn = 0; turn < 20; turn++) yield* Effect.yieldNow
      }
      expect(yield* lastOccurrence(a.id)).toBe("2026-01-15T09:00:00")
      expect(yield* lastOccurrence(b.id)).toBe("2026-01-15T09:00:00")
      const series = Option.getOrThrow(yield* (yield* SeriesRepository).findById(a.id))
      expect(series.occurrences).toHaveLength(11)
    }).pipe(
      Effect.scoped,
      Effect.provide(InMemoryRepositories),
      Effect.provideService(ScheduleSettings, settings)
    ))
})
