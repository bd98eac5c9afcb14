import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  type Actor,
  AttendanceService,
  AttendanceSettings,
  CoachCreate,
  CoachRepository,
  type CoachId,
  CurrentActor,
  Group,
  type GroupId,
  type LocalDateTime,
  NotPermitted,
  SeriesCreate,
  SessionCreate,
  SessionRepository,
  type UserId
} from "../src/index.ts"
import { PlannedSessionService, SeriesService } from "../src/calendar.ts"
import { InMemoryRepositories, InMemoryStore } from "../src/testing.ts"
import { PlannedSessionChange, SeriesChange } from "../src/index.ts"

const layer = Layer.mergeAll(AttendanceService.layer, PlannedSessionService.layer, SeriesService.layer).pipe(
  Layer.provideMerge(InMemoryRepositories)
)

const coach = (coachId: CoachId): Actor => ({
  userId: (100 + coachId) as UserId,
  role: "COACH",
  coachId,
  athleteId: null,
  adminId: null
})

const as = (actor: Actor) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, CurrentActor, actor)

const refused = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    expect(Exit.isFailure(exit)).toBe(true)
    expect(Exit.findErrorOption(exit).pipe((error) => error._tag === "Some" && error.value instanceof NotPermitted))
      .toBe(true)
  })

describe("a coach of a session's group, or of a group above it, acts on it (issue 41)", () => {
  it.effect("the coach of U12's parent configures U12's session, changes it and its series; another coach gets 403", () =>
    Effect.gen(function*() {
      // Before the sessions and the series' first occurrence, which is within the horizon.
      yield* TestClock.setTime(Date.UTC(2099, 1, 20))
      const coaches = yield* CoachRepository
      const [own, sectionCoach, other] = yield* Effect.forEach(
        ["own", "section", "other"],
        (name) => Effect.map(coaches.create(new CoachCreate({ id: null, name })), (c) => c.id)
      )
      const { groups } = yield* InMemoryStore
      const club = groups.insert(new Group({ id: 1 as GroupId, name: "Club", parentId: null, coachIds: [] }))
      const section = groups.insert(
        new Group({ id: 2 as GroupId, name: "Youth", parentId: club.id, coachIds: [sectionCoach!] })
      )
      groups.insert(new Group({ id: 3 as GroupId, name: "U12", parentId: section.id, coachIds: [] }))
      groups.insert(new Group({ id: 4 as GroupId, name: "Seniors", parentId: club.id, coachIds: [other!] }))
      const session = yield* (yield* SessionRepository).create(
        new SessionCreate({
          id: null,
          name: "Tuesday",
          isRecurrent: false,
          creneau: "2099-03-02T18:00:00" as LocalDateTime,
          duree: 60,
          groupe: "U12",
          coachId: own!,
          athleteIds: [],
          activiteIds: []
        })
      )
      const attendance = yield* AttendanceService
      const configured = yield* as(coach(sectionCoach!))(
        attendance.configure(session.id, new AttendanceSettings({ capacity: 12 }))
      )
      expect(configured.capacity).toBe(12)
      yield* refused(as(coach(other!))(attendance.configure(session.id, new AttendanceSettings({ capacity: 1 }))))
      const planned = yield* PlannedSessionService
      const renamed = yield* as(coach(sectionCoach!))(
        planned.change(session.id, new PlannedSessionChange({ name: "Tuesday U12" }))
      )
      expect(renamed.name).toBe("Tuesday U12")
      yield* refused(as(coach(other!))(planned.change(session.id, new PlannedSessionChange({ name: "Taken" }))))

      const seriesService = yield* SeriesService
      const series = yield* as(coach(own!))(seriesService.create(
        new SeriesCreate({
          name: "U12 weekly",
          groupe: "U12",
          coachId: own!,
          duree: 60,
          start: "2099-03-03T18:00:00" as LocalDateTime,
          rrule: "FREQ=WEEKLY;COUNT=2",
          athleteIds: []
        })
      ))
      const changed = yield* as(coach(sectionCoach!))(
        seriesService.change(series.id, new SeriesChange({ name: "U12 weekly run" }))
      )
      expect(changed.name).toBe("U12 weekly run")
      yield* refused(as(coach(other!))(seriesService.change(series.id, new SeriesChange({ name: "Taken" }))))
    }).pipe(Effect.provide(layer)))
})
