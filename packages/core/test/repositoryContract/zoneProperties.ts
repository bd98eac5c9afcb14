import {
  AthleteCreate,
  AthleteRepository,
  type LocalDateTime,
  PlannedSessionCreate,
  ScheduleConflict,
  ScheduleSettings,
  SeriesRepository,
  SessionRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import type { ContractServices, ContractSuite } from "./Contract.ts"

/*
 * Time-zone properties (issue 36): a booking's instants, as the store keeps and compares them,
 * equal an independent computation of `[creneau read in the zone, + duree real minutes)` made
 * here with Intl alone (not the project's code), for wall-clock times around daylight-saving
 * changes (in gaps and overlaps too) in zones whose changes differ.
 */

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatter = (zone: string) => {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(zone, f)
  }
  return f
}

/** The wall clock of `zone` at the instant `ms`, as `YYYY-MM-DDTHH:MM:SS`. */
export const wallClockIn = (zone: string, ms: number): string => {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  return `${parts["year"]}-${parts["month"]}-${parts["day"]}T${parts["hour"]}:${parts["minute"]}:${parts["second"]}`
}

const minute = 60_000

/**
 * The instant `local` names in `zone`, by search: every instant within 15 hours whose wall clock
 * shows `local`, the first of them (an overlap's first occurrence); when none does (a gap), the
 * wall clock read with the offset in force just before the change, found by bisection.
 */
export const independentInstant = (zone: string, local: string): number => {
  const wall = Date.parse(`${local}Z`)
  const offsets = new Set<number>()
  for (let t = wall - 15 * 3_600_000; t <= wall + 15 * 3_600_000; t += 15 * minute) {
    offsets.add(Date.parse(`${wallClockIn(zone, t)}Z`) - t)
  }
  const shown = [...offsets].map((offset) => wall - offset).filter((t) => wallClockIn(zone, t) === local)
  if (shown.length > 0) return Math.min(...shown)
  // A gap: the clock goes from before `local` to after it at one instant.
  let [low, high] = [wall - 15 * 3_600_000, wall + 15 * 3_600_000]
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2)
    if (wallClockIn(zone, middle) < local) low = middle
    else high = middle
  }
  // The offset read at a whole second: the wall clock shows whole seconds, so an offset read at
  // `low` itself would carry its milliseconds into the instant.
  const before = low - (((low % 1000) + 1000) % 1000)
  return wall - (Date.parse(`${wallClockIn(zone, before)}Z`) - before)
}

/** Days of daylight-saving changes of each zone, and the hours around the change (UTC has none). */
const changes: Record<string, { readonly days: ReadonlyArray<string>; readonly hours: ReadonlyArray<number> }> = {
  "Europe/Paris": { days: ["2027-03-28", "2027-10-31", "2028-03-26"], hours: [1, 2, 3] },
  "America/New_York": { days: ["2027-03-14", "2027-11-07"], hours: [1, 2, 3] },
  "Australia/Lord_Howe": { days: ["2027-04-04", "2027-10-03"], hours: [1, 2] },
  "America/Sao_Paulo": { days: ["2018-11-04", "2018-02-17", "2019-02-16"], hours: [22, 23, 0] },
  "UTC": { days: ["2027-03-28", "2027-06-01"], hours: [0, 12] }
}

const pad = (n: number) => String(n).padStart(2, "0")

/**
 * A zone, a wall-clock time on, or a day beside, one of its change days, most often in the hours
 * of the change (its gap or overlap), and a duree of 1 to 600 minutes.
 */
export const zonedBooking = fc.constantFrom(...Object.keys(changes)).chain((zone) =>
  fc.record({
    zone: fc.constant(zone),
    day: fc.constantFrom(...changes[zone]!.days),
    dayShift: fc.constantFrom(-1, 0, 0, 0, 1),
    hour: fc.oneof(fc.constantFrom(...changes[zone]!.hours), fc.integer({ min: 0, max: 23 })),
    minute: fc.oneof(fc.constantFrom(0, 15, 30, 45), fc.integer({ min: 0, max: 59 })),
    duree: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 30, 45, 60, 90, 120, 600))
  }).map(({ day, dayShift, duree, hour, minute, zone }) => {
    const date = new Date(Date.parse(`${day}T00:00:00Z`) + dayShift * 86_400_000).toISOString().slice(0, 10)
    return { zone, creneau: `${date}T${pad(hour)}:${pad(minute)}:00`, duree }
  })
)

const inZone = <A, E, R>(zone: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const settings = yield* ScheduleSettings
    return yield* Effect.provideService(effect, ScheduleSettings, { ...settings, timeZone: zone })
  })

/** `ms` as the wall clock of UTC, which names that same instant in a store set to UTC. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19) as LocalDateTime

const planned = (creneau: LocalDateTime, athleteId: number, duree: number) =>
  new PlannedSessionCreate({
    name: null,
    groupe: null,
    coachId: null,
    athleteIds: [athleteId as never],
    duree,
    creneau
  })

/**
 * The property on a store, `runs` cases: the session books its athlete from the independent start
 * instant to `duree` real minutes later, no more and no less, seen through 1-minute probes written
 * in UTC (where a wall-clock time is its instant) just inside and just outside each end.
 */
export const zonePropertiesContract = (runs: number): ContractSuite => ({
  title: "Bookings are instants in any zone (time-zone properties)",
  tests: (it) => {
    it.effect(
      `a booking's instants equal an independent Intl computation (${runs} cases)`,
      () =>
        Effect.gen(function*() {
          const series = yield* SeriesRepository
          const sessions = yield* SessionRepository
          const athletes = yield* AthleteRepository
          const check = ({ creneau, duree, zone }: { zone: string; creneau: string; duree: number }) =>
            Effect.gen(function*() {
              const athlete = yield* athletes.create(
                new AthleteCreate({ id: null, name: "Zoned", categorie: null, niveau: null })
              )
              const { id } = yield* inZone(
                zone,
                series.createSession(planned(creneau as LocalDateTime, athlete.id, duree))
              )
              const start = independentInstant(zone, creneau)
              const end = start + duree * minute
              const probe = (at: number) =>
                Effect.gen(function*() {
                  const result = yield* Effect.result(
                    inZone("UTC", series.createSession(planned(utc(at), athlete.id, 1)))
                  )
                  if (result._tag === "Success") {
                    yield* sessions.delete(result.success.id)
                    return false
                  }
                  expect(result.failure).toEqual(new ScheduleConflict({ sessionIds: [id] }))
                  return true
                })
              const seen = [
                yield* probe(start - minute),
                yield* probe(start),
                yield* probe(end - minute),
                yield* probe(end)
              ]
              expect(seen, `${zone} ${creneau} + ${duree} min: booked just before, at start, at end - 1, at end`)
                .toEqual([false, true, true, false])
            })
          const run = Effect.runPromiseWith(yield* Effect.context<ContractServices>())
          // fast-check prints the seed, the path and the shrunk case of a failure.
          yield* Effect.promise(() =>
            fc.assert(fc.asyncProperty(zonedBooking, (booking) => run(check(booking))), { numRuns: runs })
          )
        }),
      { timeout: 600_000 }
    )
  }
})
