import {
  AthleteCreate,
  AthleteRepository,
  CoachCreate,
  CoachRepository,
  type LocalDateTime,
  PlannedSessionCreate,
  ScheduleConflict,
  ScheduleSettings,
  Series,
  SeriesCreate,
  type SeriesId,
  SeriesRepository,
  SessionCreate,
  SessionRepository,
  SessionUpdate,
  UnknownReferences
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"

const at = (value: string) => value as LocalDateTime

/** A weekly series on Mondays at 18:00 with its four occurrences from `start` (a Monday). */
const weekly = (start: string, fields: Partial<SeriesCreate> = {}) =>
  Effect.gen(function*() {
    const times = [0, 7, 14, 21].map((days) =>
      at(new Date(Date.parse(`${start}Z`) + days * 86_400_000).toISOString().slice(0, 19))
    )
    return yield* (yield* SeriesRepository).create(
      new SeriesCreate({
        name: "Track",
        groupe: "Seniors",
        coachId: null,
        duree: 60,
        start: at(start),
        rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=4",
        athleteIds: [],
        ...fields
      }),
      times,
      times[3]!
    )
  })

const read = (id: SeriesId) => Effect.map(Effect.flatMap(SeriesRepository, (r) => r.findById(id)), Option.getOrThrow)
const session = (id: number) =>
  Effect.map(Effect.flatMap(SessionRepository, (r) => r.findById(id as never)), Option.getOrThrow)

export const seriesChangesContract: ContractSuite = {
  title: "SeriesRepository (changes)",
  tests: (it) => {
    it.effect("rewrite in place: the occurrences from `from` on move and take the values given; the earlier ones stay", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* weekly("2032-03-01T18:00:00")
        const [first, second, third, fourth] = series.occurrences
        const changed = Option.getOrThrow(
          yield* repository.rewrite(series.id, {
            from: second!.occurrenceStart,
            shiftSeconds: 1800,
            continuation: false,
            start: at("2032-03-01T18:30:00"),
            rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=4",
            values: { name: "Renamed", duree: 45 }
          })
        )
        expect(changed).toMatchObject({
          id: series.id,
          name: "Renamed",
          duree: 45,
          start: "2032-03-01T18:30:00",
          expandedUntil: "2032-03-22T18:30:00",
          continuedBy: null
        })
        expect(changed.revision).toBeGreaterThan(series.revision)
        expect(changed.occurrences.map((o) => [o.sessionId, o.occurrenceStart])).toEqual([
          [first!.sessionId, "2032-03-01T18:00:00"],
          [second!.sessionId, "2032-03-08T18:30:00"],
          [third!.sessionId, "2032-03-15T18:30:00"],
          [fourth!.sessionId, "2032-03-22T18:30:00"]
        ])
        expect(yield* session(first!.sessionId)).toMatchObject({
          name: "Track",
          duree: 60,
          creneau: "2032-03-01T18:00:00"
        })
        expect(yield* session(third!.sessionId)).toMatchObject({
          name: "Renamed",
          duree: 45,
          creneau: "2032-03-15T18:30:00",
          groupe: "Seniors"
        })
      }))

    it.effect("rewrite with continuation: the series ends before `from`, a new one holds the later occurrences", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const athlete = yield* (yield* AthleteRepository).create(
          new AthleteCreate({ id: null, name: "a", categorie: null, niveau: null })
        )
        const series = yield* weekly("2032-04-05T18:00:00")
        const [first, second, third, fourth] = series.occurrences
        const continued = Option.getOrThrow(
          yield* repository.rewrite(series.id, {
            from: third!.occurrenceStart,
            shiftSeconds: 0,
            continuation: true,
            start: third!.occurrenceStart,
            rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
            values: { athleteIds: [athlete.id], groupe: null }
          })
        )
        expect(continued.id).not.toBe(series.id)
        expect(continued).toMatchObject({
          name: "Track",
          groupe: null,
          athleteIds: [athlete.id],
          start: "2032-04-19T18:00:00",
          rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
          continuedBy: null
        })
        expect(continued.occurrences.map((o) => o.sessionId)).toEqual([third!.sessionId, fourth!.sessionId])
        const ended = yield* read(series.id)
        expect(ended).toMatchObject({ endsBefore: "2032-04-19T18:00:00", continuedBy: continued.id })
        expect(ended.occurrences).toEqual([first, second])
        expect(yield* session(fourth!.sessionId)).toMatchObject({ groupe: null, athleteIds: [athlete.id] })
        expect(yield* session(second!.sessionId)).toMatchObject({ groupe: "Seniors", athleteIds: [] })
      }))

    it.effect("rewrite moves the cancellations from `from` on with the occurrences (shifted, to the new series)", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* weekly("2032-05-03T18:00:00")
        const [, second, , fourth] = series.occurrences
        yield* repository.cancelAt(series.id, second!.occurrenceStart)
        yield* repository.cancelAt(series.id, fourth!.occurrenceStart)
        const continued = Option.getOrThrow(
          yield* repository.rewrite(series.id, {
            from: at("2032-05-17T18:00:00"),
            shiftSeconds: 3600,
            continuation: true,
            start: at("2032-05-17T19:00:00"),
            rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
            values: {}
          })
        )
        expect((yield* repository.cancellations([series.id])).map((c) => c.occurrenceStart)).toEqual([
          "2032-05-10T18:00:00"
        ])
        expect(yield* repository.cancellations([continued.id])).toEqual([
          expect.objectContaining({ seriesId: continued.id, occurrenceStart: "2032-05-24T19:00:00", sequence: 1 })
        ])
        // In place (no continuation): they move within the series.
        const other = yield* weekly("2032-06-07T18:00:00")
        yield* repository.cancelAt(other.id, other.occurrences[2]!.occurrenceStart)
        yield* repository.rewrite(other.id, {
          from: other.occurrences[0]!.occurrenceStart,
          shiftSeconds: -1800,
          continuation: false,
          start: at("2032-06-07T17:30:00"),
          rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=4",
          values: {}
        })
        expect((yield* repository.cancellations([other.id])).map((c) => c.occurrenceStart)).toEqual([
          "2032-06-21T17:30:00"
        ])
      }))

    it.effect("changeOccurrence overrides one occurrence, which a later rewrite leaves as it is", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* weekly("2032-05-03T18:00:00")
        const [, second, third] = series.occurrences
        yield* repository.changeOccurrence(series.id, second!.sessionId, {
          name: "Moved",
          creneau: at("2032-05-11T07:00:00")
        })
        const overridden = yield* read(series.id)
        expect(overridden.occurrences[1]).toMatchObject({ sessionId: second!.sessionId, overridden: true })
        yield* repository.rewrite(series.id, {
          from: second!.occurrenceStart,
          shiftSeconds: 3600,
          continuation: true,
          start: at("2032-05-10T19:00:00"),
          rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=3",
          values: { name: "Later" }
        })
        expect(yield* session(second!.sessionId)).toMatchObject({ name: "Moved", creneau: "2032-05-11T07:00:00" })
        expect(yield* session(third!.sessionId)).toMatchObject({ name: "Later", creneau: "2032-05-17T19:00:00" })
        const continued = yield* read(Option.getOrThrow(Option.fromNullishOr((yield* read(series.id)).continuedBy)))
        expect(continued.occurrences[0]).toEqual(
          expect.objectContaining({
            sessionId: second!.sessionId,
            occurrenceStart: "2032-05-10T19:00:00",
            overridden: true
          })
        )
      }))

    it.effect("refuses a change into a double booking, naming the session, and writes nothing", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Busy" }))
        const busy = yield* weekly("2032-06-07T10:00:00", { coachId: coach.id })
        const series = yield* weekly("2032-06-07T18:00:00")
        const before = yield* read(series.id)
        const error = yield* Effect.flip(repository.rewrite(series.id, {
          from: series.occurrences[1]!.occurrenceStart,
          shiftSeconds: -8 * 3600 + 1800,
          continuation: true,
          start: at("2032-06-14T10:30:00"),
          rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=3",
          values: { coachId: coach.id }
        }))
        expect(error).toEqual(new ScheduleConflict({ sessionIds: busy.occurrences.slice(1).map((o) => o.sessionId) }))
        expect(yield* read(series.id)).toEqual(before)
        expect(yield* session(series.occurrences[2]!.sessionId)).toMatchObject({
          coachId: null,
          creneau: "2032-06-21T18:00:00"
        })
        const one = yield* Effect.flip(repository.changeOccurrence(series.id, series.occurrences[3]!.sessionId, {
          coachId: coach.id,
          creneau: at("2032-06-28T10:59:00")
        }))
        expect(one).toEqual(new ScheduleConflict({ sessionIds: [busy.occurrences[3]!.sessionId] }))
        expect(yield* read(series.id)).toEqual(before)
        // Back to back is no conflict.
        yield* repository.changeOccurrence(series.id, series.occurrences[3]!.sessionId, {
          coachId: coach.id,
          creneau: at("2032-06-28T11:00:00")
        })
        expect(yield* session(series.occurrences[3]!.sessionId)).toMatchObject({ coachId: coach.id })
      }))

    it.effect("refuses unknown athletes or coach; an unknown series is none", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const series = yield* weekly("2032-07-05T18:00:00")
        const error = yield* Effect.flip(repository.changeOccurrence(series.id, series.occurrences[0]!.sessionId, {
          athleteIds: [9_999_999 as never]
        }))
        expect(error).toEqual(new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [9_999_999] }))
        expect(
          yield* repository.rewrite(9_999_999 as SeriesId, {
            from: at("2032-07-05T18:00:00"),
            shiftSeconds: 0,
            continuation: false,
            start: at("2032-07-05T18:00:00"),
            rrule: "FREQ=DAILY",
            values: {}
          })
        ).toEqual(Option.none())
      }))

    const planned = (fields: Partial<PlannedSessionCreate>) =>
      new PlannedSessionCreate({
        name: null,
        groupe: null,
        coachId: null,
        athleteIds: [],
        duree: 60,
        creneau: at("2032-08-02T10:00:00"),
        ...fields
      })
    const seedSession = (fields: Partial<SessionCreate>) =>
      new SessionCreate({
        id: null,
        name: "Seed",
        isRecurrent: null,
        creneau: null,
        duree: null,
        groupe: null,
        coachId: null,
        athleteIds: [],
        activiteIds: [],
        ...fields
      })
    const refusing = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const settings = yield* ScheduleSettings
        return yield* Effect.provideService(effect, ScheduleSettings, { ...settings, seedRefusesConflicts: true })
      })

    it.effect("createSession books its people; a session update of its duree books it again at the new length", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const sessions = yield* SessionRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Planned" }))
        const { id } = yield* repository.createSession(
          planned({ coachId: coach.id, creneau: at("2032-08-02T10:00:00") })
        )
        const clash = planned({ coachId: coach.id, creneau: at("2032-08-02T10:59:00"), duree: 5 })
        expect(yield* Effect.flip(repository.createSession(clash))).toEqual(new ScheduleConflict({ sessionIds: [id] }))
        yield* sessions.update(id, new SessionUpdate({ duree: 30 }))
        const { id: freed } = yield* repository.createSession(
          planned({ coachId: coach.id, creneau: at("2032-08-02T10:30:00") })
        )
        yield* sessions.update(id, new SessionUpdate({ duree: 120 }))
        // The longer session overlaps the one booked meanwhile: the seed's update is not refused, the
        // session is left without that booking, and the double booking is listed for the club to clean up.
        const conflicts = yield* repository.conflicts(undefined, 100_000)
        expect(conflicts.filter((c) => c.sessionId === id)).toEqual([
          expect.objectContaining({ sessionId: id, otherSessionId: freed, coachId: coach.id })
        ])
        // A seed session books no one unless the setting says so.
        yield* sessions.create(seedSession({ coachId: coach.id, creneau: at("2032-08-02T10:00:00"), duree: 60 }))
      }))

    it.effect("with seedRefusesConflicts, a session create or update that double-books is refused, changing nothing", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const sessions = yield* SessionRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Strict" }))
        const { id: held } = yield* repository.createSession(
          planned({ coachId: coach.id, creneau: at("2032-09-06T10:00:00") })
        )
        const before = yield* sessions.list()
        const error = yield* Effect.flip(refusing(sessions.create(seedSession({
          coachId: coach.id,
          creneau: at("2032-09-06T10:30:00"),
          duree: 60
        }))))
        expect(error).toEqual(new ScheduleConflict({ sessionIds: [held] }))
        expect(yield* sessions.list()).toEqual(before)
        const seeded = yield* refusing(sessions.create(seedSession({
          coachId: coach.id,
          creneau: at("2032-09-06T08:00:00"),
          duree: 60
        })))
        const refused = yield* Effect.flip(refusing(sessions.update(seeded.id, new SessionUpdate({ duree: 150 }))))
        expect(refused).toEqual(new ScheduleConflict({ sessionIds: [held] }))
        expect(yield* session(seeded.id)).toEqual(seeded)
        // Its own booking still holds: nothing may take 08:00 to 09:00.
        expect(
          yield* Effect.flip(repository.createSession(planned({
            coachId: coach.id,
            creneau: at("2032-09-06T08:30:00"),
            duree: 5
          })))
        ).toEqual(new ScheduleConflict({ sessionIds: [seeded.id] }))
      }))

    it.effect("dueForExtension lists the series not extended up to a time and not ended there, longest ago first", () =>
      Effect.gen(function*() {
        const repository = yield* SeriesRepository
        const early = yield* weekly("2035-01-01T18:00:00")
        const late = yield* weekly("2035-02-05T18:00:00")
        const ended = yield* weekly("2035-01-08T18:00:00")
        yield* repository.endBefore(ended.id, at("2035-01-15T18:00:00"))
        const ids = [early.id, late.id, ended.id]
        const due = (until: string, limit: number) =>
          Effect.map(
            repository.dueForExtension(at(until), limit),
            (list) => list.filter((series) => ids.includes(series.id)).map((series) => series.id)
          )
        expect(yield* due("2035-01-23T00:00:00", 10_000)).toEqual([early.id])
        expect(yield* due("2035-12-31T00:00:00", 10_000)).toEqual([early.id, late.id])
        // Longest ago first: the earliest `expandedUntil` of all is within any limit that reaches it.
        expect((yield* repository.dueForExtension(at("2035-12-31T00:00:00"), 1)).length).toBe(1)
        // Without their occurrences, which every round would otherwise read again (issue 37).
        expect(early.occurrences.length).toBeGreaterThan(0)
        const listed = (yield* repository.dueForExtension(at("2035-12-31T00:00:00"), 10_000)).find((series) =>
          series.id === early.id
        )
        expect(listed).toEqual(new Series({ ...early, occurrences: [] }))
      }))
  }
}
