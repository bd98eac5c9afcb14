import {
  type AthleteId,
  AthleteCreate,
  AthleteRepository,
  type LocalDateTime,
  PlannedSessionCreate,
  ScheduleConflict,
  ScheduleSettings,
  SeriesCreate,
  SeriesRepository,
  SessionCreate,
  type SessionId,
  SessionRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"

const at = (value: string) => value as LocalDateTime

const newAthletes = (count: number) =>
  Effect.gen(function*() {
    const athletes = yield* AthleteRepository
    const ids: Array<AthleteId> = []
    for (let i = 0; i < count; i++) {
      ids.push(
        (yield* athletes.create(new AthleteCreate({ id: null, name: `Edited ${i}`, categorie: null, niveau: null }))).id
      )
    }
    return ids
  })

const planned = (creneau: string, athleteIds: ReadonlyArray<AthleteId>, duree = 60) =>
  new PlannedSessionCreate({ name: null, groupe: null, coachId: null, athleteIds, duree, creneau: at(creneau) })

const athletesOf = (id: SessionId) =>
  Effect.map(
    Effect.flatMap(SessionRepository, (r) => r.findById(id)),
    (found) => [...Option.getOrThrow(found).athleteIds].sort((a, b) => a - b)
  )

/**
 * Which of `athleteIds` are booked over `[creneau, +duree)`: each is tried alone in a session of
 * its own there, which a booking refuses (the probe is deleted when it was written).
 */
const bookedAmong = (creneau: string, duree: number, athleteIds: ReadonlyArray<AthleteId>) =>
  Effect.gen(function*() {
    const series = yield* SeriesRepository
    const sessions = yield* SessionRepository
    const booked: Array<AthleteId> = []
    for (const athleteId of athleteIds) {
      const probe = yield* Effect.result(series.createSession(planned(creneau, [athleteId], duree)))
      if (probe._tag === "Failure") booked.push(athleteId)
      else yield* sessions.delete(probe.success.id)
    }
    return booked
  })

/** The weekly lists a club edits: each is applied to a session holding [a, b]. */
const edits = (a: AthleteId, b: AthleteId, c: AthleteId) => ({
  "keep one": [a],
  "add one": [a, b, c],
  "remove one, add one": [a, c],
  "the same list": [a, b],
  "reordered": [b, a],
  "repeated": [b, a, b],
  "empty": []
})

export const planningEditsContract: ContractSuite = {
  title: "SeriesRepository (athlete lists edited, instants across daylight-saving changes)",
  tests: (it) => {
    it.effect("createSession answers the session as findById reads it: athletes ascending without repeats, no activity", () =>
      Effect.gen(function*() {
        const series = yield* SeriesRepository
        const [a, b, c] = yield* newAthletes(3)
        const created = yield* series.createSession(
          new PlannedSessionCreate({
            name: "Answered",
            groupe: "U12",
            coachId: null,
            athleteIds: [c!, a!, c!, b!],
            duree: 75,
            creneau: at("2033-03-01T17:45:00")
          })
        )
        expect(created).toEqual(Option.getOrThrow(yield* (yield* SessionRepository).findById(created.id)))
        expect(created).toMatchObject({
          name: "Answered",
          isRecurrent: false,
          groupe: "U12",
          coachId: null,
          duree: 75,
          creneau: "2033-03-01T17:45:00",
          athleteIds: [a, b, c],
          activiteIds: []
        })
      }))

    it.effect("changeSession to any list keeping, adding or removing athletes: memberships and bookings follow it exactly", () =>
      Effect.gen(function*() {
        const series = yield* SeriesRepository
        const [a, b, c] = yield* newAthletes(3)
        let day = 1
        for (const [name, list] of Object.entries(edits(a!, b!, c!))) {
          const creneau = `2033-01-${String(day++).padStart(2, "0")}T10:00:00`
          const { id } = yield* series.createSession(planned(creneau, [a!, b!]))
          expect(yield* series.changeSession(id, { athleteIds: list }), name).toBe(true)
          const expected = [...new Set(list)].sort((x, y) => x - y)
          expect(yield* athletesOf(id), name).toEqual(expected)
          expect(yield* bookedAmong(creneau, 30, [a!, b!, c!]), name).toEqual(expected)
        }
      }))

    it.effect("changeOccurrence and rewrite to a list keeping an athlete: memberships and bookings follow it", () =>
      Effect.gen(function*() {
        const series = yield* SeriesRepository
        const [a, b, c] = yield* newAthletes(3)
        const times = ["2033-02-07T18:00:00", "2033-02-14T18:00:00", "2033-02-21T18:00:00"].map(at)
        const created = yield* series.create(
          new SeriesCreate({
            name: "Edited",
            groupe: null,
            coachId: null,
            duree: 60,
            start: times[0]!,
            rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=3",
            athleteIds: [a!, b!]
          }),
          times,
          times[2]!
        )
        const [first, second, third] = created.occurrences
        yield* series.changeOccurrence(created.id, first!.sessionId, { athleteIds: [a!] })
        expect(yield* athletesOf(first!.sessionId)).toEqual([a])
        expect(yield* bookedAmong(times[0]!, 30, [a!, b!, c!])).toEqual([a])
        Option.getOrThrow(
          yield* series.rewrite(created.id, {
            from: second!.occurrenceStart,
            shiftSeconds: 0,
            continuation: true,
            start: times[1]!,
            rrule: "FREQ=WEEKLY;BYDAY=MO;COUNT=2",
            values: { athleteIds: [b!, c!] }
          })
        )
        for (const [occurrence, time] of [[second!, times[1]!], [third!, times[2]!]] as const) {
          expect(yield* athletesOf(occurrence.sessionId)).toEqual([b, c])
          expect(yield* bookedAmong(time, 30, [a!, b!, c!])).toEqual([b, c])
        }
        // The occurrence changed alone kept its own list.
        expect(yield* athletesOf(first!.sessionId)).toEqual([a])
      }))

    const inParis = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const settings = yield* ScheduleSettings
        return yield* Effect.provideService(effect, ScheduleSettings, { ...settings, timeZone: "Europe/Paris" })
      })

    it.effect("a session starting in the spring-forward gap is booked from the instant after the gap's offset change", () =>
      inParis(Effect.gen(function*() {
        const series = yield* SeriesRepository
        const [a] = yield* newAthletes(1)
        // 02:30 on the spring day is 03:30 CEST (01:30Z): 30 minutes run to 04:00 CEST.
        const { id: gap } = yield* series.createSession(planned("2027-03-28T02:30:00", [a!], 30))
        expect(yield* Effect.flip(series.createSession(planned("2027-03-28T03:59:00", [a!], 1)))).toEqual(
          new ScheduleConflict({ sessionIds: [gap] })
        )
        yield* series.createSession(planned("2027-03-28T04:00:00", [a!], 45))
        yield* series.createSession(planned("2027-03-28T01:00:00", [a!], 60))
      })))

    it.effect("bookings are instants: the issue's daylight-saving examples in Europe/Paris", () =>
      inParis(Effect.gen(function*() {
        const series = yield* SeriesRepository
        const [a, b, c] = yield* newAthletes(3)
        // 01:30 CET + 90 real minutes ends at 04:00 CEST: 03:30 + 30 overlaps it.
        const { id: long } = yield* series.createSession(planned("2027-03-28T01:30:00", [a!], 90))
        expect(yield* Effect.flip(series.createSession(planned("2027-03-28T03:30:00", [a!], 30)))).toEqual(
          new ScheduleConflict({ sessionIds: [long] })
        )
        // 01:30 CEST + 120 real minutes ends at 02:30 CET: 03:15 CET is 45 minutes later.
        yield* series.createSession(planned("2027-10-31T01:30:00", [b!], 120))
        yield* series.createSession(planned("2027-10-31T03:15:00", [b!], 30))
        // 02:30 + 60 on the spring day twice: the same instants.
        const { id: first } = yield* series.createSession(planned("2027-03-28T02:30:00", [c!], 60))
        expect(yield* Effect.flip(series.createSession(planned("2027-03-28T02:30:00", [c!], 60)))).toEqual(
          new ScheduleConflict({ sessionIds: [first] })
        )
        // Written without booking (the seed's way), the pair is listed as a conflict.
        const again = yield* (yield* SessionRepository).create(
          new SessionCreate({
            id: null,
            name: "Seed",
            isRecurrent: null,
            creneau: at("2027-03-28T02:30:00"),
            duree: 60,
            groupe: null,
            coachId: null,
            athleteIds: [c!],
            activiteIds: []
          })
        )
        const conflicts = yield* series.conflicts(undefined, 500)
        expect(conflicts.filter((conflict) => conflict.otherSessionId === again.id)).toEqual([
          expect.objectContaining({ sessionId: first, otherSessionId: again.id, athleteId: c })
        ])
      })))
  }
}
