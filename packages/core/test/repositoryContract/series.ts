import {
  AthleteCreate,
  AthleteId,
  AthleteRepository,
  CoachCreate,
  CoachRepository,
  type DoubleBookingPosition,
  type LocalDateTime,
  positionOfBooking,
  SeriesCreate,
  type SeriesId,
  SeriesRepository,
  ScheduleConflict,
  SessionRepository,
  UnknownReferences
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newSession } from "./fixtures.ts"

const times = (...values: ReadonlyArray<string>) => values as ReadonlyArray<LocalDateTime>

const seriesInput = (fields: Partial<SeriesCreate> = {}) =>
  new SeriesCreate({
    name: "Track",
    groupe: "Seniors",
    coachId: null,
    duree: 75,
    start: "2026-03-23T18:00:00" as LocalDateTime,
    rrule: "FREQ=WEEKLY;BYDAY=MO",
    athleteIds: [],
    ...fields
  })

const occurrenceTimes = (id: SeriesId) =>
  Effect.gen(function*() {
    const series = Option.getOrThrow(yield* (yield* SeriesRepository).findById(id))
    return series.occurrences.map((o) => o.occurrenceStart)
  })

export const seriesRepositoryContract: ContractSuite = {
  title: "SeriesRepository",
  tests: (it) => {
    it.effect("creates the series and a session per occurrence, with its values, coach and athletes", () =>
      Effect.gen(function*() {
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Coach" }))
        const athletes = yield* AthleteRepository
        const a = yield* athletes.create(new AthleteCreate({ id: null, name: "a", categorie: null, niveau: null }))
        const b = yield* athletes.create(new AthleteCreate({ id: null, name: "b", categorie: null, niveau: null }))
        const series = yield* (yield* SeriesRepository).create(
          seriesInput({ coachId: coach.id, athleteIds: [b.id, a.id, b.id] }),
          times("2026-03-23T18:00:00", "2026-03-30T18:00:00"),
          "2026-04-01T12:00:00" as LocalDateTime
        )
        expect(series.athleteIds).toEqual([a.id, b.id])
        expect(series.expandedUntil).toBe("2026-04-01T12:00:00")
        expect(series.occurrences.map((o) => o.occurrenceStart)).toEqual(["2026-03-23T18:00:00", "2026-03-30T18:00:00"])
        const sessions = yield* SessionRepository
        for (const occurrence of series.occurrences) {
          const session = Option.getOrThrow(yield* sessions.findById(occurrence.sessionId))
          expect({ ...session }).toEqual({
            id: occurrence.sessionId,
            name: "Track",
            isRecurrent: true,
            creneau: occurrence.occurrenceStart,
            duree: 75,
            groupe: "Seniors",
            coachId: coach.id,
            athleteIds: [a.id, b.id],
            activiteIds: []
          })
        }
        expect(yield* (yield* SeriesRepository).findById(series.id)).toEqual(Option.some(series))
      }))

    it.effect("refuses unknown athletes or coach, writing nothing", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const before = yield* sessions.list()
        const error = yield* Effect.flip(
          (yield* SeriesRepository).create(
            seriesInput({ athleteIds: [AthleteId.make(9_999_999)] }),
            times("2027-01-04T18:00:00"),
            "2027-01-05T00:00:00" as LocalDateTime
          )
        )
        expect(error).toEqual(new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [9_999_999] }))
        expect(yield* sessions.list()).toEqual(before)
      }))

    it.effect("extends with the times after expandedUntil only, once each, and never moves it back", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2026-06-01T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY" }),
          times("2026-06-01T09:00:00", "2026-06-02T09:00:00"),
          "2026-06-02T12:00:00" as LocalDateTime
        )
        yield* repository.extend(
          series.id,
          times("2026-06-02T09:00:00", "2026-06-03T09:00:00", "2026-06-04T09:00:00"),
          "2026-06-04T12:00:00" as LocalDateTime
        )
        yield* repository.extend(series.id, times("2026-06-03T09:00:00"), "2026-06-03T12:00:00" as LocalDateTime)
        expect(yield* occurrenceTimes(series.id)).toEqual([
          "2026-06-01T09:00:00",
          "2026-06-02T09:00:00",
          "2026-06-03T09:00:00",
          "2026-06-04T09:00:00"
        ])
        const read = Option.getOrThrow(yield* repository.findById(series.id))
        expect(read.expandedUntil).toBe("2026-06-04T12:00:00")
      }))

    it.effect("two writers extending at once create each occurrence once", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2026-07-01T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY" }),
          times("2026-07-01T09:00:00"),
          "2026-07-01T12:00:00" as LocalDateTime
        )
        const next = times("2026-07-02T09:00:00", "2026-07-03T09:00:00", "2026-07-04T09:00:00")
        yield* Effect.all(
          [1, 2, 3].map(() => repository.extend(series.id, next, "2026-07-04T12:00:00" as LocalDateTime)),
          { concurrency: "unbounded" }
        )
        expect(yield* occurrenceTimes(series.id)).toEqual(["2026-07-01T09:00:00", ...next])
        const sessions = yield* (yield* SessionRepository).list({ creneau: "2026-07-03T09:00:00" as LocalDateTime })
        expect(sessions).toHaveLength(1)
      }))

    it.effect("writers extending at once: those that find the series held write nothing, and each occurrence is created once", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2026-07-11T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY" }),
          times("2026-07-11T09:00:00"),
          "2026-07-11T12:00:00" as LocalDateTime
        )
        const next = times("2026-07-12T09:00:00", "2026-07-13T09:00:00", "2026-07-14T09:00:00")
        const until = "2026-07-14T12:00:00" as LocalDateTime
        const extended = yield* Effect.all(
          [1, 2, 3, 4].map(() => repository.extend(series.id, next, until)),
          { concurrency: "unbounded" }
        )
        // The first to hold it writes; one that found it held wrote nothing and says so.
        expect(extended).toContain(true)
        expect(yield* occurrenceTimes(series.id)).toEqual(["2026-07-11T09:00:00", ...next])
        expect(Option.getOrThrow(yield* repository.findById(series.id)).expandedUntil).toBe(until)
        // Nobody holding it, an extension writes.
        expect(
          yield* repository.extend(series.id, times("2026-07-15T09:00:00"), "2026-07-15T12:00:00" as LocalDateTime)
        )
          .toBe(true)
        expect((yield* occurrenceTimes(series.id)).at(-1)).toBe("2026-07-15T09:00:00")
      }))

    it.effect("an occurrence whose session was deleted is no longer listed, and is not created again", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2026-08-03T09:00:00" as LocalDateTime }),
          times("2026-08-03T09:00:00", "2026-08-10T09:00:00"),
          "2026-08-11T00:00:00" as LocalDateTime
        )
        yield* (yield* SessionRepository).delete(series.occurrences[0]!.sessionId)
        yield* repository.extend(
          series.id,
          times("2026-08-03T09:00:00", "2026-08-10T09:00:00", "2026-08-17T09:00:00"),
          "2026-08-18T00:00:00" as LocalDateTime
        )
        expect(yield* occurrenceTimes(series.id)).toEqual(["2026-08-10T09:00:00", "2026-08-17T09:00:00"])
      }))

    it.effect("finds no unknown series, and extending one does nothing", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        expect(yield* repository.findById(987_654 as SeriesId)).toEqual(Option.none())
        expect(
          yield* repository.extend(
            987_654 as SeriesId,
            times("2030-01-01T00:00:00"),
            "2030-01-02T00:00:00" as LocalDateTime
          )
        ).toBe(false)
        expect(yield* (yield* SessionRepository).list({ creneau: "2030-01-01T00:00:00" as LocalDateTime })).toEqual([])
      }))

    it.effect("refuses a series whose coach is already booked at an overlapping instant, naming those sessions; nothing is written", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Busy" }))
        const first = yield* repository.create(
          seriesInput({ coachId: coach.id, start: "2026-09-07T18:00:00" as LocalDateTime, duree: 60 }),
          times("2026-09-07T18:00:00", "2026-09-14T18:00:00"),
          "2026-09-15T00:00:00" as LocalDateTime
        )
        const sessions = yield* SessionRepository
        const before = yield* sessions.list()
        const error = yield* Effect.flip(repository.create(
          seriesInput({ coachId: coach.id, start: "2026-09-07T18:30:00" as LocalDateTime, duree: 15 }),
          times("2026-09-07T18:30:00", "2026-09-14T18:30:00"),
          "2026-09-15T00:00:00" as LocalDateTime
        ))
        expect(error).toEqual(new ScheduleConflict({ sessionIds: first.occurrences.map((o) => o.sessionId) }))
        expect(yield* sessions.list()).toEqual(before)
      }))

    it.effect("refuses an athlete booked twice at once; back-to-back sessions and other people are no conflict", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const athletes = yield* AthleteRepository
        const a = yield* athletes.create(new AthleteCreate({ id: null, name: "a", categorie: null, niveau: null }))
        const b = yield* athletes.create(new AthleteCreate({ id: null, name: "b", categorie: null, niveau: null }))
        const first = yield* repository.create(
          seriesInput({ athleteIds: [a.id], start: "2026-10-05T10:00:00" as LocalDateTime, duree: 60 }),
          times("2026-10-05T10:00:00"),
          "2026-10-06T00:00:00" as LocalDateTime
        )
        // Ends as the first starts, and starts as it ends: [start, end) ranges that only touch.
        yield* repository.create(
          seriesInput({ athleteIds: [a.id], start: "2026-10-05T09:00:00" as LocalDateTime, duree: 60 }),
          times("2026-10-05T09:00:00"),
          "2026-10-06T00:00:00" as LocalDateTime
        )
        yield* repository.create(
          seriesInput({ athleteIds: [a.id], start: "2026-10-05T11:00:00" as LocalDateTime, duree: 30 }),
          times("2026-10-05T11:00:00"),
          "2026-10-06T00:00:00" as LocalDateTime
        )
        const other = yield* repository.create(
          seriesInput({ athleteIds: [b.id], start: "2026-10-05T10:00:00" as LocalDateTime, duree: 60 }),
          times("2026-10-05T10:00:00"),
          "2026-10-06T00:00:00" as LocalDateTime
        )
        const error = yield* Effect.flip(repository.create(
          seriesInput({ athleteIds: [b.id, a.id], start: "2026-10-05T10:59:00" as LocalDateTime, duree: 1 }),
          times("2026-10-05T10:59:00"),
          "2026-10-06T00:00:00" as LocalDateTime
        ))
        expect(error).toEqual(
          new ScheduleConflict({ sessionIds: [first.occurrences[0]!.sessionId, other.occurrences[0]!.sessionId] })
        )
      }))

    it.effect("an extension creates an occurrence whose coach is booked elsewhere, without that booking", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Later" }))
        const early = yield* repository.create(
          seriesInput({ coachId: coach.id, start: "2026-11-02T18:00:00" as LocalDateTime, duree: 60 }),
          times("2026-11-02T18:00:00"),
          "2026-11-03T00:00:00" as LocalDateTime
        )
        yield* repository.create(
          seriesInput({ coachId: coach.id, start: "2026-11-09T18:00:00" as LocalDateTime, duree: 60 }),
          times("2026-11-09T18:00:00"),
          "2026-11-10T00:00:00" as LocalDateTime
        )
        yield* repository.extend(early.id, times("2026-11-09T18:00:00"), "2026-11-10T00:00:00" as LocalDateTime)
        expect(yield* occurrenceTimes(early.id)).toEqual(["2026-11-02T18:00:00", "2026-11-09T18:00:00"])
      }))

    it.effect("endBefore deletes the occurrences from that time on, and no extension creates one there", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2026-12-01T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY" }),
          times("2026-12-01T09:00:00", "2026-12-02T09:00:00", "2026-12-03T09:00:00"),
          "2026-12-03T12:00:00" as LocalDateTime
        )
        yield* repository.endBefore(series.id, "2026-12-02T09:00:00" as LocalDateTime)
        yield* repository.endBefore(series.id, "2026-12-03T00:00:00" as LocalDateTime)
        yield* repository.extend(series.id, times("2026-12-04T09:00:00"), "2026-12-04T12:00:00" as LocalDateTime)
        const read = Option.getOrThrow(yield* repository.findById(series.id))
        expect(read.occurrences).toEqual(series.occurrences.slice(0, 1))
        expect(read.endsBefore).toBe("2026-12-02T09:00:00")
        const sessions = yield* SessionRepository
        expect(yield* sessions.findById(series.occurrences[1]!.sessionId)).toEqual(Option.none())
      }))

    it.effect("cancelAt deletes one occurrence, which no extension creates again", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* repository.create(
          seriesInput({ start: "2027-01-04T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY" }),
          times("2027-01-04T09:00:00", "2027-01-05T09:00:00"),
          "2027-01-05T12:00:00" as LocalDateTime
        )
        yield* repository.cancelAt(series.id, "2027-01-04T09:00:00" as LocalDateTime)
        yield* repository.extend(
          series.id,
          times("2027-01-04T09:00:00", "2027-01-05T09:00:00", "2027-01-06T09:00:00"),
          "2027-01-06T12:00:00" as LocalDateTime
        )
        expect(yield* occurrenceTimes(series.id)).toEqual(["2027-01-05T09:00:00", "2027-01-06T09:00:00"])
      }))

    it.effect("cancelAt remembers the cancellation (sequence, coach, group, athletes) in the same write; the session stays deleted", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const sessions = yield* SessionRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Coach" }))
        const athletes = yield* AthleteRepository
        const a = yield* athletes.create(new AthleteCreate({ id: null, name: "a", categorie: null, niveau: null }))
        const b = yield* athletes.create(new AthleteCreate({ id: null, name: "b", categorie: null, niveau: null }))
        const series = yield* repository.create(
          seriesInput({
            start: "2027-02-01T09:00:00" as LocalDateTime,
            rrule: "FREQ=DAILY",
            coachId: coach.id,
            athleteIds: [b.id, a.id]
          }),
          times("2027-02-01T09:00:00", "2027-02-02T09:00:00", "2027-02-03T09:00:00"),
          "2027-02-03T12:00:00" as LocalDateTime
        )
        const [first, second, third] = series.occurrences
        expect(yield* repository.cancellations([series.id])).toEqual([])
        const scope = { kind: "athlete", athleteId: a.id } as const
        const before = yield* sessions.feedVersion(scope)
        // The second occurrence changed once (its revision 1): the cancellation's sequence is above it.
        yield* repository.changeSession(second!.sessionId, { name: "Changed" })
        const changed = yield* sessions.feedVersion(scope)
        expect(changed).not.toBe(before)
        yield* repository.cancelAt(series.id, "2027-02-02T09:00:00" as LocalDateTime)
        yield* repository.cancelAt(series.id, "2027-02-03T09:00:00" as LocalDateTime)
        // Again, and a time without a session: nothing more.
        yield* repository.cancelAt(series.id, "2027-02-03T09:00:00" as LocalDateTime)
        yield* repository.cancelAt(series.id, "2027-02-09T09:00:00" as LocalDateTime)
        expect(yield* repository.cancellations([series.id, 999_999 as SeriesId])).toEqual([
          {
            seriesId: series.id,
            occurrenceStart: "2027-02-02T09:00:00",
            sequence: 2,
            coachId: coach.id,
            groupe: "Seniors",
            athleteIds: [a.id, b.id]
          },
          {
            seriesId: series.id,
            occurrenceStart: "2027-02-03T09:00:00",
            sequence: 1,
            coachId: coach.id,
            groupe: "Seniors",
            athleteIds: [a.id, b.id]
          }
        ])
        expect(yield* sessions.feedVersion(scope)).not.toBe(changed)
        // The sessions stay deleted: the seed's reads do not show them, the series does not list them.
        expect(yield* sessions.findById(second!.sessionId)).toEqual(Option.none())
        expect(yield* sessions.findById(third!.sessionId)).toEqual(Option.none())
        expect((yield* sessions.list()).map((session) => session.id)).not.toContain(second!.sessionId)
        expect(yield* occurrenceTimes(series.id)).toEqual([first!.occurrenceStart])
        expect(yield* repository.cancellations([])).toEqual([])
        // "This and the following" drops the cancellations it ends.
        yield* repository.endBefore(series.id, "2027-02-03T00:00:00" as LocalDateTime)
        expect((yield* repository.cancellations([series.id])).map((c) => c.occurrenceStart)).toEqual([
          "2027-02-02T09:00:00"
        ])
      }))

    it.effect("feedVersion moves when an occurrence outside the scope is cancelled", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const sessions = yield* SessionRepository
        const series = yield* repository.create(
          seriesInput({ start: "2027-03-01T09:00:00" as LocalDateTime, rrule: "FREQ=DAILY", groupe: "Cancel-scope" }),
          times("2027-03-01T09:00:00", "2027-03-02T09:00:00"),
          "2027-03-02T12:00:00" as LocalDateTime
        )
        // The second occurrence moves to another group: the group's feed no longer holds it.
        yield* repository.changeSession(series.occurrences[1]!.sessionId, { groupe: "Elsewhere" })
        const scope = { kind: "group", groupe: "Cancel-scope" } as const
        const before = yield* sessions.feedVersion(scope)
        yield* repository.cancelAt(series.id, "2027-03-02T09:00:00" as LocalDateTime)
        expect(yield* sessions.feedVersion(scope)).not.toBe(before)
        expect((yield* repository.cancellations([series.id])).map((c) => c.groupe)).toEqual(["Elsewhere"])
      }))

    it.effect("conflicts lists the sessions, however written, that book one coach or athlete at overlapping instants", () =>
      Effect.gen(function*() {
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Twice" }))
        const athlete = yield* (yield* AthleteRepository).create(
          new AthleteCreate({ id: null, name: "twice", categorie: null, niveau: null })
        )
        const sessions = yield* SessionRepository
        const at = (creneau: string, duree: number, athleteIds: ReadonlyArray<typeof athlete.id>) =>
          sessions.create(
            newSession({ creneau: creneau as LocalDateTime, duree, coachId: coach.id, athleteIds: [...athleteIds] })
          )
        const first = yield* at("2032-05-03T10:00:00", 60, [athlete.id])
        const second = yield* at("2032-05-03T10:59:00", 30, [athlete.id])
        const backToBack = yield* at("2032-05-03T11:29:00", 30, [])
        const noDuree = yield* at("2032-05-03T10:10:00", 0, [athlete.id])
        const mine = new Set([first.id, second.id, backToBack.id, noDuree.id])
        const found = (yield* (yield* SeriesRepository).conflicts(undefined, 100_000)).filter((pair) =>
          mine.has(pair.sessionId)
        )
        expect(found.map((pair) => ({ ...pair }))).toEqual([
          { sessionId: first.id, otherSessionId: second.id, coachId: coach.id, athleteId: null },
          { sessionId: first.id, otherSessionId: second.id, coachId: null, athleteId: athlete.id }
        ])
      }))

    it.effect("conflicts answers pages after a position, in order, each pair and person once (issue 37)", () =>
      Effect.gen(function*() {
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Paged" }))
        const athleteRepository = yield* AthleteRepository
        const athletes = yield* Effect.forEach(
          [1, 2, 3],
          (n) =>
            athleteRepository.create(new AthleteCreate({ id: null, name: `paged ${n}`, categorie: null, niveau: null }))
        )
        const athleteIds = athletes.map((a) => a.id).sort((x, y) => x - y)
        const sessions = yield* SessionRepository
        // Four sessions overlapping each other: six pairs, each with the coach and three athletes.
        const created = yield* Effect.forEach(["10:00", "10:15", "10:30", "10:45"], (time) =>
          sessions.create(
            newSession({ creneau: `2033-01-10T${time}:00` as LocalDateTime, duree: 60, coachId: coach.id, athleteIds })
          ))
        const ids = created.map((session) => session.id).sort((x, y) => x - y)
        const expected = ids.flatMap((a, i) =>
          ids.slice(i + 1).flatMap((b) => [
            { sessionId: a, otherSessionId: b, coachId: coach.id, athleteId: null },
            ...athleteIds.map((athleteId) => ({ sessionId: a, otherSessionId: b, coachId: null, athleteId }))
          ])
        )
        const repository = yield* SeriesRepository
        const read: Array<object> = []
        let after: DoubleBookingPosition = { sessionId: ids[0]!, otherSessionId: 0, kind: 0, personId: 0 }
        for (let page = 0; page < 20; page++) {
          const rows = yield* repository.conflicts(after, 5)
          const mine = rows.filter((pair) => ids.includes(pair.sessionId))
          read.push(...mine.map((pair) => ({ ...pair })))
          if (mine.length < 5) break
          expect(rows.length).toBe(5)
          after = positionOfBooking(rows.at(-1)!)
        }
        expect(read).toEqual(expected)
        // A page never answers more than it is asked for.
        expect((yield* repository.conflicts(undefined, 2)).length).toBeLessThanOrEqual(2)
      }))
  }
}
