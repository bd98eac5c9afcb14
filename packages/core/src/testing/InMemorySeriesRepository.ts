import { Effect, Layer, Option } from "effect"
import type { SeriesId, SessionId } from "../domain/Ids.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { Occurrence, Series, type SeriesCreate } from "../domain/Series.ts"
import { ScheduleConflict } from "../domain/Errors.ts"
import { SeriesRepository } from "../ports/SeriesRepository.ts"
import { ScheduleSettings } from "../usecases/ScheduleSettings.ts"
import { traced } from "../tracing/traced.ts"
import { DoubleBooking } from "../domain/DoubleBooking.ts"
import { bookingsOf, rangeOf } from "./bookings.ts"
import { InMemoryStore, type StoredSeries } from "./InMemoryStore.ts"

export const InMemorySeriesRepository = Layer.effect(
  SeriesRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { activities, athletes, coaches, series, sessions } = store
    const bookings = bookingsOf(store)

    /** The series as answered: the occurrences whose session still exists, in time order. */
    const read = (stored: StoredSeries) =>
      new Series({
        ...stored,
        occurrences: [...stored.occurrences]
          .filter(([, sessionId]) => sessions.has(sessionId))
          .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
          .map(([occurrenceStart, sessionId]) => new Occurrence({ sessionId, occurrenceStart }))
      })

    /**
     * A session per time not created yet, for the athletes that still exist, each booking its
     * coach and athletes where they are free; answers what `book` answers, and the new sessions.
     */
    const addOccurrences = (stored: StoredSeries, times: ReadonlyArray<LocalDateTime>, timeZone: string) => {
      const athleteIds = stored.athleteIds.filter((id) => athletes.has(id))
      const created: Array<SessionId> = []
      for (const creneau of times) {
        if (stored.occurrences.has(creneau)) continue
        const id = sessions.newId(null) as SessionId
        sessions.insert({
          id,
          name: stored.name,
          isRecurrent: true,
          creneau,
          duree: stored.duree,
          groupe: stored.groupe,
          coachId: stored.coachId,
          athleteIds: new Set(athleteIds)
        })
        stored.occurrences.set(creneau, id)
        created.push(id)
      }
      const booked = bookings.book(
        timeZone,
        created.map((sessionId) => ({
          sessionId,
          coachId: stored.coachId,
          athleteIds,
          creneau: sessions.get(sessionId)!.creneau!,
          duree: stored.duree
        }))
      )
      return { ...booked, created }
    }

    const create = traced("SeriesRepository.create")(
      function*(input: SeriesCreate, occurrences: ReadonlyArray<LocalDateTime>, expandedUntil: LocalDateTime) {
        const unknown = athletes.unknownReferences("athleteIds", input.athleteIds) ??
          (input.coachId === null ? undefined : coaches.unknownReferences("coachId", [input.coachId]))
        if (unknown !== undefined) return yield* unknown
        const stored = series.insert({
          ...input,
          id: series.newId(null) as SeriesId,
          athleteIds: [...new Set(input.athleteIds)].sort((a, b) => a - b),
          expandedUntil,
          endsBefore: null,
          occurrences: new Map()
        })
        const { timeZone } = yield* ScheduleSettings
        const { created, met, skipped } = addOccurrences(stored, occurrences, timeZone)
        if (skipped) {
          // All or nothing, as the database's transaction: the series and its sessions go.
          bookings.unbook(created)
          for (const id of created) sessions.delete(id)
          series.delete(stored.id)
          return yield* new ScheduleConflict({ sessionIds: met })
        }
        return read(stored)
      }
    )

    const findById = traced("SeriesRepository.findById")(function*(id: SeriesId) {
      return Option.map(Option.fromNullishOr(series.get(id)), read)
    })

    const extend = traced("SeriesRepository.extend")(
      function*(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime) {
        const stored = series.get(id)
        if (stored === undefined) return
        const { timeZone } = yield* ScheduleSettings
        addOccurrences(
          stored,
          occurrences.filter((time) =>
            time > stored.expandedUntil && (stored.endsBefore === null || time < stored.endsBefore)
          ),
          timeZone
        )
        if (until > stored.expandedUntil) series.replace({ ...stored, expandedUntil: until })
      }
    )

    /** Deletes a session; its memberships go with it, and its activities, as the database's cascade does. */
    const deleteSession = (sessionId: SessionId) => {
      if (!sessions.delete(sessionId)) return
      for (const activity of activities.values()) if (activity.sessionId === sessionId) activities.delete(activity.id)
    }

    const cancelAt = traced("SeriesRepository.cancelAt")(function*(id: SeriesId, time: LocalDateTime) {
      const sessionId = series.get(id)?.occurrences.get(time)
      if (sessionId !== undefined) deleteSession(sessionId)
    })

    const endBefore = traced("SeriesRepository.endBefore")(function*(id: SeriesId, from: LocalDateTime) {
      const stored = series.get(id)
      if (stored === undefined) return
      for (const [time, sessionId] of stored.occurrences) if (time >= from) deleteSession(sessionId)
      if (stored.endsBefore === null || from < stored.endsBefore) series.replace({ ...stored, endsBefore: from })
    })

    const conflicts = traced("SeriesRepository.conflicts")(function*() {
      const { timeZone } = yield* ScheduleSettings
      const booked = sessions.all().flatMap((session) => {
        const during = session.creneau === null || session.duree === null
          ? undefined
          : rangeOf(timeZone, session.creneau, session.duree)
        return during === undefined ? [] : [{ session, during }]
      })
      const found: Array<DoubleBooking> = []
      for (const [i, a] of booked.entries()) {
        for (const b of booked.slice(i + 1)) {
          if (!(a.during.from < b.during.to && b.during.from < a.during.to)) continue
          const pair = { sessionId: a.session.id, otherSessionId: b.session.id }
          if (a.session.coachId !== null && a.session.coachId === b.session.coachId) {
            found.push(new DoubleBooking({ ...pair, coachId: a.session.coachId, athleteId: null }))
          }
          for (const athleteId of [...a.session.athleteIds].sort((x, y) => x - y)) {
            if (b.session.athleteIds.has(athleteId)) {
              found.push(new DoubleBooking({ ...pair, coachId: null, athleteId }))
            }
          }
        }
      }
      return found
    })

    return SeriesRepository.of({ create, findById, extend, endBefore, cancelAt, conflicts })
  })
)
