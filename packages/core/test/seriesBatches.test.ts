import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  AthleteCreate,
  AthleteRepository,
  CoachCreate,
  CoachRepository,
  CurrentActor,
  InvalidValue,
  type LocalDateTime,
  ScheduleSettings,
  SeriesCreate,
  SessionRepository
} from "../src/index.ts"
import { extendDueSeries, SeriesExtensionWake, SeriesService } from "../src/calendar.ts"
import { InMemoryRepositories } from "../src/testing.ts"
import { coach, seriesSettings } from "./support/seriesHarness.ts"

/** 2026-03-20T12:00:00Z, as the other series tests. */
const now = Date.UTC(2026, 2, 20, 12, 0, 0)

/** Ten places a transaction, at most 40 a series: a series of three athletes and a coach writes two occurrences at a time. */
const settings = { ...seriesSettings, placesPerWrite: 10, maxSeriesPlaces: 40 }

const layerWith = (wakes: Array<string>) =>
  SeriesService.layer.pipe(
    Layer.provideMerge(InMemoryRepositories),
    Layer.provideMerge(Layer.succeed(ScheduleSettings, settings)),
    Layer.provideMerge(
      Layer.succeed(SeriesExtensionWake, {
        wake: Effect.sync(() => {
          wakes.push("wake")
        }),
        woken: Effect.never
      })
    )
  )

const athletesNamed = (names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const athletes = yield* AthleteRepository
    return yield* Effect.forEach(
      names,
      (name) => athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null }))
    )
  })

const input = (coachId: number, athleteIds: ReadonlyArray<number>, rrule: string) =>
  SeriesCreate.make({
    name: "Batched",
    groupe: null,
    coachId: coachId as never,
    duree: 60,
    start: "2026-03-21T18:00:00" as LocalDateTime,
    rrule,
    athleteIds: athleteIds as never
  })

describe("A series' work is bounded per transaction (issue 37)", () => {
  it.effect("a create writes one transaction's worth and wakes the extension, which writes the rest in batches, each once", () => {
    const wakes: Array<string> = []
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const athletes = yield* athletesNamed(["a", "b", "c"])
      const { id: coachId } = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Batcher" }))
      const service = yield* SeriesService
      const series = yield* service.create(input(coachId, athletes.map((a) => a.id), "FREQ=DAILY;COUNT=9"))
      // Four people an occurrence, ten places a transaction: two occurrences.
      expect(series.occurrences.map((o) => o.occurrenceStart)).toEqual(["2026-03-21T18:00:00", "2026-03-22T18:00:00"])
      expect(series.expandedUntil).toBe("2026-03-22T18:00:00")
      expect(wakes).toEqual(["wake"])
      // Each round writes one batch of each series with work left, and says whether more is left.
      const rounds: Array<string> = []
      for (let round = 0; round < 10; round++) {
        const left = yield* extendDueSeries(100)
        rounds.push(left)
        if (left === "done") break
      }
      expect(rounds).toEqual(["more", "more", "more", "done"])
      const sessions = (yield* (yield* SessionRepository).list()).filter((s) => s.name === "Batched")
      expect(sessions.map((s) => s.creneau)).toEqual(
        Array.from({ length: 9 }, (_, day) => `2026-03-${String(21 + day)}T18:00:00`)
      )
      expect(sessions.every((s) => s.athleteIds.length === 3)).toBe(true)
      // Nothing more: a further round and a read create nothing twice.
      expect(yield* extendDueSeries(100)).toBe("done")
      expect((yield* service.read(series.id)).occurrences).toHaveLength(9)
    }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layerWith(wakes)))
  })

  it.effect("a read extends by one transaction and, with occurrences left, wakes the server's extension for the rest", () => {
    const wakes: Array<string> = []
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const athletes = yield* athletesNamed(["a", "b", "c"])
      const { id: coachId } = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Reader" }))
      const service = yield* SeriesService
      const series = yield* service.create(input(coachId, athletes.map((a) => a.id), "FREQ=DAILY;COUNT=5"))
      expect(series.occurrences).toHaveLength(2)
      expect(wakes).toEqual(["wake"])
      // Two more, one left: the read asks for the extension again rather than leave it to the next hour.
      expect((yield* service.read(series.id)).occurrences).toHaveLength(4)
      expect(wakes).toEqual(["wake", "wake"])
      // The last: nothing left, no wake.
      expect((yield* service.read(series.id)).occurrences).toHaveLength(5)
      expect(wakes).toEqual(["wake", "wake"])
    }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layerWith(wakes)))
  })

  it.effect("a series of more places than SCHEDULE_MAX_SERIES_PLACES is refused naming athleteIds, nothing written", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const athletes = yield* athletesNamed(["a", "b", "c"])
      const error = yield* Effect.flip(
        (yield* SeriesService).create(input(1, athletes.map((a) => a.id), "FREQ=DAILY;COUNT=11"))
      )
      expect(error).toBeInstanceOf(InvalidValue)
      expect((error as InvalidValue).field).toBe("athleteIds")
      expect((error as InvalidValue).reason).toContain("44 places (11 occurrences × 4 people), more than 40")
      expect(yield* (yield* SessionRepository).list()).toEqual([])
    }).pipe(Effect.provideService(CurrentActor, coach), Effect.provide(layerWith([]))))
})
