import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  type Actor,
  type CoachId,
  CurrentActor,
  FeedTokenRepository,
  instantOf,
  type LocalDateTime,
  OccurrenceChange,
  ScheduleSettings,
  SeriesChange,
  SeriesCreate,
  SessionRepository,
  UserRepository
} from "../../src/index.ts"
import { CalendarFeedService, SeriesService } from "../../src/calendar.ts"
import { InMemoryRepositories } from "../../src/testing.ts"
import { newUser } from "../repositoryContract/fixtures.ts"
import { expandFeed } from "./expandFeed.ts"

const zone = "Europe/Paris"

const layer = Layer.mergeAll(SeriesService.layer, CalendarFeedService.layer).pipe(
  Layer.provideMerge(InMemoryRepositories),
  Layer.provideMerge(Layer.succeed(ScheduleSettings, { timeZone: zone, horizonWeeks: 4, maxOccurrences: 50 }))
)

/** 2026-03-20T12:00:00Z: nine days before Europe/Paris moves to summer time (2026-03-29). */
const now = Date.UTC(2026, 2, 20, 12, 0, 0)

/** What a calendar app shows of the coach's sessions as the service stores them: instants, summary. */
const storedInstances = (coachId: CoachId) =>
  Effect.gen(function*() {
    const sessions = yield* (yield* SessionRepository).list({ coachId })
    return sessions.map((session) => {
      const start = instantOf(zone, session.creneau!)
      return {
        start: new Date(start).toISOString(),
        end: new Date(start + session.duree! * 60_000).toISOString(),
        summary: session.name
      }
    }).sort((a, b) => a.start.localeCompare(b.start))
  })

/** The feed's instances as ical.js expands them, but those cancelled. */
const feedInstances = (body: string) =>
  expandFeed(body).filter(({ status }) => status !== "CANCELLED").map(({ end, start, summary }) => ({
    start,
    end,
    summary
  })).sort((a, b) => a.start.localeCompare(b.start))

/** The feed's cancelled instances as ical.js expands them. */
const cancelledInstances = (body: string) =>
  expandFeed(body).filter(({ status }) => status === "CANCELLED").map(({ sequence, start, uid }) => ({
    uid,
    start,
    sequence
  }))

describe("a coach's feed of a series, read back by ical.js (Europe/Paris)", () => {
  it.effect("expands to the sessions the service stores, across the change to summer time, after changes and a cancel", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const user = yield* (yield* UserRepository).create(newUser("feed-coach", "COACH"))
      const coachId = user.coachId!
      const actor: Actor = { userId: user.id, role: "COACH", coachId, athleteId: null, adminId: null }
      const token = yield* (yield* FeedTokenRepository).rotate(user.id)
      const scope = { kind: "coach", coachId } as const
      const asCoach = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, actor)
      const series = yield* SeriesService
      const feeds = yield* CalendarFeedService
      const render = () => asCoach(feeds.render(token, scope))

      const created = yield* asCoach(series.create(SeriesCreate.make({
        name: "Evening run",
        groupe: "U18",
        coachId,
        duree: 90,
        start: "2026-03-23T18:00:00" as LocalDateTime,
        rrule: "FREQ=WEEKLY;BYDAY=MO,TH",
        athleteIds: []
      })))
      // Mondays and Thursdays up to the horizon, on both sides of 2026-03-29.
      expect(created.occurrences.map((o) => o.occurrenceStart)).toContain("2026-03-26T18:00:00")
      expect(created.occurrences.map((o) => o.occurrenceStart)).toContain("2026-03-30T18:00:00")
      const first = yield* render()
      expect(first.body).toContain("RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=")
      expect(feedInstances(first.body)).toEqual(yield* storedInstances(coachId))
      // 18:00 is 17:00Z in winter and 16:00Z in summer.
      expect(feedInstances(first.body).slice(0, 3).map((i) => i.start)).toEqual([
        "2026-03-23T17:00:00.000Z",
        "2026-03-26T17:00:00.000Z",
        "2026-03-30T16:00:00.000Z"
      ])

      const [, , monday, thursday] = created.occurrences
      yield* asCoach(series.changeOccurrence(
        created.id,
        monday!.sessionId,
        "one",
        OccurrenceChange.make({ creneau: "2026-03-31T07:00:00" as LocalDateTime, name: "Moved" })
      ))
      const moved = yield* render()
      expect(moved.etag).not.toBe(first.etag)
      yield* asCoach(series.cancelOccurrence(created.id, thursday!.sessionId, "one"))
      const edited = yield* render()
      // The cancel alone moves the ETag.
      expect(edited.etag).not.toBe(moved.etag)
      expect(edited.body).toContain("RECURRENCE-ID;TZID=Europe/Paris:20260330T180000")
      // The cancelled occurrence: STATUS:CANCELLED at its RECURRENCE-ID (after the change to
      // summer time: 18:00 is 16:00Z), above the series' SEQUENCE (0); no EXDATE.
      expect(edited.body).toContain("RECURRENCE-ID;TZID=Europe/Paris:20260402T180000")
      expect(edited.body).not.toContain("EXDATE")
      expect(cancelledInstances(edited.body)).toEqual([
        { uid: `series-${created.id}@club-training-service`, start: "2026-04-02T16:00:00.000Z", sequence: 1 }
      ])
      expect(feedInstances(edited.body)).toEqual(yield* storedInstances(coachId))
      expect(feedInstances(edited.body).find((i) => i.summary === "Moved")?.start).toBe("2026-03-31T05:00:00.000Z")
      // Its session stays deleted: the seed's endpoints do not show it.
      expect(yield* (yield* SessionRepository).findById(thursday!.sessionId)).toEqual(Option.none())

      // A change of the whole series: the moved occurrence stays an exception, the cancelled one cancelled.
      yield* asCoach(series.change(created.id, SeriesChange.make({ name: "Renamed", duree: 60 })))
      const renamed = yield* render()
      expect(renamed.etag).not.toBe(edited.etag)
      expect(feedInstances(renamed.body)).toEqual(yield* storedInstances(coachId))
      expect(feedInstances(renamed.body).filter((i) => i.summary === "Moved")).toHaveLength(1)
      expect(renamed.body).toMatch(/SEQUENCE:1/u)
      // Still above the series' SEQUENCE (now 1).
      expect(cancelledInstances(renamed.body)).toEqual([
        { uid: `series-${created.id}@club-training-service`, start: "2026-04-02T16:00:00.000Z", sequence: 2 }
      ])

      // A week later, a change of the time of day: the series ends, a new one continues it.
      yield* TestClock.setTime(Date.UTC(2026, 2, 27, 12, 0, 0))
      const continued = yield* asCoach(series.change(created.id, SeriesChange.make({ time: "19:15:00" })))
      expect(continued.id).not.toBe(created.id)
      const split = yield* render()
      expect(split.etag).not.toBe(renamed.etag)
      expect(split.body).toContain(`UID:series-${continued.id}@club-training-service`)
      expect(feedInstances(split.body)).toEqual(yield* storedInstances(coachId))
      // The cancellation followed its occurrence into the new series, at the new time of day, its
      // SEQUENCE above the new series' (0).
      expect(cancelledInstances(split.body)).toEqual([
        { uid: `series-${continued.id}@club-training-service`, start: "2026-04-02T17:15:00.000Z", sequence: 1 }
      ])
      expect(yield* asCoach(feeds.etag(token, scope))).toBe(split.etag)

      // "This and the following": the series ends (UNTIL); the occurrences it ends are not
      // STATUS:CANCELLED entries (a calendar app drops them as the RRULE shrinks).
      const kept = yield* asCoach(series.read(continued.id))
      const from = kept.occurrences.at(-2)!
      yield* asCoach(series.cancelOccurrence(continued.id, from.sessionId, "following"))
      const ended = yield* render()
      expect(ended.etag).not.toBe(split.etag)
      expect(feedInstances(ended.body)).toEqual(yield* storedInstances(coachId))
      expect(cancelledInstances(ended.body)).toHaveLength(1)
    }).pipe(Effect.provide(layer)))
})
