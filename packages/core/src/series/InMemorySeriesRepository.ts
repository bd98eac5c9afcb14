import { Effect, Layer, Option } from "effect"
import type { SeriesId, SessionId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import {
  Occurrence,
  type OccurrenceValues,
  type PlannedSessionCreate,
  Series,
  type SeriesCancellation,
  type SeriesCreate,
  type SeriesRewrite
} from "./Series.ts"
import { plusSeconds } from "../shared/clubTime.ts"
import type { AthleteId } from "../shared/Ids.ts"
import { ScheduleConflict } from "../shared/Errors.ts"
import { SeriesRepository } from "./SeriesRepository.ts"
import { ScheduleSettings } from "./ScheduleSettings.ts"
import { traced } from "../shared/traced.ts"
import { DoubleBooking, type DoubleBookingPosition, positionOfBooking } from "../sessions/DoubleBooking.ts"
import { bookingsOf, rangeOf } from "../sessions/bookings.ts"
import { InMemoryStore, sessionOfStored, type StoredSeries } from "../shared/InMemoryStore.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import {
  seriesCancelled,
  seriesChanged,
  seriesCreated,
  sessionCancelled,
  sessionChanged,
  sessionCreated
} from "../webhooks/domainEvents.ts"

export const InMemorySeriesRepository = Layer.effect(
  SeriesRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { activities, athleteBookings, athletes, coachBookings, coaches, series, sessionRevisions, sessions } = store
    const bookings = bookingsOf(store)
    const outbox = yield* InMemoryOutbox

    /** The series as answered: the occurrences whose session still exists, in time order. */
    const read = ({ cancelled: _cancelled, overridden, ...stored }: StoredSeries) =>
      new Series({
        ...stored,
        occurrences: [...stored.occurrences]
          .filter(([, sessionId]) => sessions.has(sessionId))
          .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
          .map(([occurrenceStart, sessionId]) =>
            new Occurrence({ sessionId, occurrenceStart, overridden: overridden.has(sessionId) })
          )
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
          continuedBy: null,
          revision: 0,
          occurrences: new Map(),
          overridden: new Set(),
          cancelled: new Map()
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
        // One event for the series, none per occurrence (decision 0280).
        yield* appendEvents(outbox, [seriesCreated(stored)])
        return read(stored)
      }
    )

    const findById = traced("SeriesRepository.findById")(function*(id: SeriesId) {
      return Option.map(Option.fromNullishOr(series.get(id)), read)
    })

    const findMany = traced("SeriesRepository.findMany")(function*(ids: ReadonlyArray<SeriesId>) {
      return [...new Set(ids)].sort((a, b) => a - b).flatMap((id) => {
        const stored = series.get(id)
        return stored === undefined ? [] : [read(stored)]
      })
    })

    /** A snapshot of what a change may write, to put back when it is refused (all or nothing). */
    const snapshot = (sessionIds: ReadonlyArray<SessionId>, seriesIds: ReadonlyArray<SeriesId>) => {
      const savedSessions = sessionIds.map((id) => sessions.get(id)!)
      const savedRevisions = sessionIds.map((id) => sessionRevisions.get(id))
      const savedCoach = sessionIds.map((id) => coachBookings.get(id))
      const savedAthletes = sessionIds.map((id) => athleteBookings.get(id))
      const savedSeries = seriesIds.map((id) => {
        const stored = series.get(id)!
        return {
          ...stored,
          occurrences: new Map(stored.occurrences),
          overridden: new Set(stored.overridden),
          cancelled: new Map(stored.cancelled)
        }
      })
      return () => {
        for (const stored of savedSessions) sessions.replace(stored)
        sessionIds.forEach((id, i) => {
          const revision = savedRevisions[i]
          if (revision === undefined) sessionRevisions.delete(id)
          else sessionRevisions.set(id, revision)
          const coach = savedCoach[i]
          if (coach === undefined) coachBookings.delete(id)
          else coachBookings.set(id, coach)
          const byAthlete = savedAthletes[i]
          if (byAthlete === undefined) athleteBookings.delete(id)
          else athleteBookings.set(id, byAthlete)
        })
        for (const stored of savedSeries) series.replace(stored)
      }
    }

    /**
     * Writes `values` into the sessions of `ids` (and `creneau` when given per session), their
     * revision one more, then books them again; answers what `book` answers.
     */
    const rewriteSessions = (
      ids: ReadonlyArray<SessionId>,
      values: OccurrenceValues,
      creneauOf: (id: SessionId) => LocalDateTime | undefined,
      timeZone: string
    ) => {
      for (const id of ids) {
        const stored = sessions.get(id)!
        const creneau = creneauOf(id)
        sessions.replace({
          ...stored,
          ...("name" in values ? { name: values.name ?? null } : {}),
          ...("groupe" in values ? { groupe: values.groupe ?? null } : {}),
          ...("coachId" in values ? { coachId: values.coachId ?? null } : {}),
          ...(values.duree === undefined ? {} : { duree: values.duree }),
          ...(creneau === undefined ? {} : { creneau }),
          athleteIds: values.athleteIds === undefined ? stored.athleteIds : new Set<AthleteId>(values.athleteIds)
        })
        sessionRevisions.set(id, (sessionRevisions.get(id) ?? 0) + 1)
      }
      bookings.unbook(ids)
      return bookings.book(
        timeZone,
        ids.flatMap((sessionId) => {
          const session = sessions.get(sessionId)!
          return session.creneau === null || session.duree === null ? [] : [{
            sessionId,
            coachId: session.coachId,
            athleteIds: [...session.athleteIds],
            creneau: session.creneau,
            duree: session.duree
          }]
        })
      )
    }

    const unknownOf = (values: OccurrenceValues) =>
      (values.athleteIds === undefined ? undefined : athletes.unknownReferences("athleteIds", values.athleteIds)) ??
        (values.coachId === undefined || values.coachId === null
          ? undefined
          : coaches.unknownReferences("coachId", [values.coachId]))

    const rewrite = traced("SeriesRepository.rewrite")(function*(id: SeriesId, change: SeriesRewrite) {
      const old = series.get(id)
      if (old === undefined) return Option.none<Series>()
      const unknown = unknownOf(change.values)
      if (unknown !== undefined) return yield* unknown
      const v = change.values
      const merged = {
        name: "name" in v ? v.name ?? null : old.name,
        groupe: "groupe" in v ? v.groupe ?? null : old.groupe,
        coachId: "coachId" in v ? v.coachId ?? null : old.coachId,
        duree: v.duree ?? old.duree,
        athleteIds: v.athleteIds === undefined ? old.athleteIds : [...new Set(v.athleteIds)].sort((a, b) => a - b)
      }
      const shift = (time: LocalDateTime) => plusSeconds(time, change.shiftSeconds)
      const moving = [...old.occurrences].filter(([time]) => time >= change.from)
      const changed = moving.map(([, sessionId]) => sessionId)
        .filter((sessionId) => sessions.has(sessionId) && !old.overridden.has(sessionId))
      const restore = snapshot(changed, [id])
      const targetId = change.continuation ? series.newId(null) as SeriesId : id
      const values = {
        ...merged,
        start: change.start,
        rrule: change.rrule,
        expandedUntil: shift(old.expandedUntil),
        endsBefore: old.endsBefore === null ? null : shift(old.endsBefore)
      }
      const target = change.continuation
        ? series.insert({
          ...values,
          id: targetId,
          continuedBy: null,
          revision: 0,
          occurrences: new Map(),
          overridden: new Set(),
          cancelled: new Map()
        })
        : old
      if (change.continuation) {
        series.replace({
          ...old,
          continuedBy: targetId,
          endsBefore: old.endsBefore === null || change.from < old.endsBefore ? change.from : old.endsBefore,
          revision: old.revision + 1
        })
      }
      for (const [time] of moving) old.occurrences.delete(time)
      // The cancellations from `from` on follow the occurrences (one per day, so no two meet).
      const cancelledMoving = [...old.cancelled].filter(([time]) => time >= change.from)
      for (const [time] of cancelledMoving) old.cancelled.delete(time)
      for (const [time, cancelled] of cancelledMoving) target.cancelled.set(shift(time), cancelled)
      for (const [time, sessionId] of moving) {
        target.occurrences.set(shift(time), sessionId)
        if (old.overridden.has(sessionId)) {
          old.overridden.delete(sessionId)
          target.overridden.add(sessionId)
        }
      }
      if (!change.continuation) series.replace({ ...target, ...values, revision: old.revision + 1 })
      const { timeZone } = yield* ScheduleSettings
      const timeOf = new Map(moving.map(([time, sessionId]) => [sessionId, shift(time)]))
      const booked = rewriteSessions(
        changed,
        change.values,
        (sessionId) => change.shiftSeconds === 0 ? undefined : timeOf.get(sessionId),
        timeZone
      )
      if (booked.skipped) {
        restore()
        if (change.continuation) series.delete(targetId)
        return yield* new ScheduleConflict({ sessionIds: booked.met })
      }
      yield* appendEvents(outbox, [seriesChanged(id, change.from, change.continuation ? targetId : null)])
      return Option.some(read(series.get(targetId)!))
    })

    const changeOccurrence = traced("SeriesRepository.changeOccurrence")(
      function*(id: SeriesId, sessionId: SessionId, change: OccurrenceValues & { readonly creneau?: LocalDateTime }) {
        const unknown = unknownOf(change)
        if (unknown !== undefined) return yield* unknown
        const stored = series.get(id)
        if (stored === undefined || ![...stored.occurrences.values()].includes(sessionId)) return
        if (!sessions.has(sessionId)) return
        const restore = snapshot([sessionId], [id])
        const before = sessions.get(sessionId)!
        stored.overridden.add(sessionId)
        const { timeZone } = yield* ScheduleSettings
        const booked = rewriteSessions([sessionId], change, () => change.creneau, timeZone)
        if (booked.skipped) {
          restore()
          return yield* new ScheduleConflict({ sessionIds: booked.met })
        }
        yield* appendEvents(outbox, [sessionChanged({ ...sessions.get(sessionId)!, seriesId: id }, before)])
      }
    )

    const createSession = traced("SeriesRepository.createSession")(function*(input: PlannedSessionCreate) {
      const unknown = unknownOf(input)
      if (unknown !== undefined) return yield* unknown
      const id = sessions.newId(null) as SessionId
      sessions.insert({
        id,
        name: input.name,
        isRecurrent: false,
        creneau: input.creneau,
        duree: input.duree,
        groupe: input.groupe,
        coachId: input.coachId,
        athleteIds: new Set(input.athleteIds)
      })
      const { timeZone } = yield* ScheduleSettings
      const booked = bookings.book(timeZone, [{ ...input, athleteIds: [...new Set(input.athleteIds)], sessionId: id }])
      if (booked.skipped) {
        bookings.unbook([id])
        sessions.delete(id)
        return yield* new ScheduleConflict({ sessionIds: booked.met })
      }
      const created = sessions.get(id)!
      yield* appendEvents(outbox, [sessionCreated({ ...created, seriesId: null })])
      return sessionOfStored(created, [])
    })

    const changeSession = traced("SeriesRepository.changeSession")(
      function*(id: SessionId, change: OccurrenceValues & { readonly creneau?: LocalDateTime }) {
        if (!sessions.has(id)) return false
        const unknown = unknownOf(change)
        if (unknown !== undefined) return yield* unknown
        const owner = [...series.values()].find((stored) => [...stored.occurrences.values()].includes(id))
        const restore = snapshot([id], owner === undefined ? [] : [owner.id])
        const before = sessions.get(id)!
        owner?.overridden.add(id)
        const { timeZone } = yield* ScheduleSettings
        const booked = rewriteSessions([id], change, () => change.creneau, timeZone)
        if (booked.skipped) {
          restore()
          return yield* new ScheduleConflict({ sessionIds: booked.met })
        }
        yield* appendEvents(outbox, [sessionChanged({ ...sessions.get(id)!, seriesId: owner?.id ?? null }, before)])
        return true
      }
    )

    const dueForExtension = traced("SeriesRepository.dueForExtension")(
      function*(until: LocalDateTime, limit: number) {
        return [...series.values()]
          .filter((stored) =>
            stored.expandedUntil < until && (stored.endsBefore === null || stored.endsBefore > stored.expandedUntil)
          )
          .sort((a, b) => a.expandedUntil < b.expandedUntil ? -1 : a.expandedUntil > b.expandedUntil ? 1 : a.id - b.id)
          .slice(0, limit)
          .map((stored) => new Series({ ...read(stored), occurrences: [] }))
      }
    )

    // One writer at a time in memory: no series is ever held by another.
    const extend = traced("SeriesRepository.extend")(
      function*(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime) {
        const stored = series.get(id)
        if (stored === undefined) return false
        const { timeZone } = yield* ScheduleSettings
        addOccurrences(
          stored,
          occurrences.filter((time) =>
            time > stored.expandedUntil && (stored.endsBefore === null || time < stored.endsBefore)
          ),
          timeZone
        )
        if (until > stored.expandedUntil) series.replace({ ...stored, expandedUntil: until })
        return true
      }
    )

    /** Deletes a session; its memberships go with it, and its activities, as the database's cascade does. */
    const deleteSession = (sessionId: SessionId) => {
      if (!sessions.delete(sessionId)) return
      for (const activity of activities.values()) if (activity.sessionId === sessionId) activities.delete(activity.id)
    }

    const cancelAt = traced("SeriesRepository.cancelAt")(function*(id: SeriesId, time: LocalDateTime) {
      const stored = series.get(id)
      const sessionId = stored?.occurrences.get(time)
      const session = sessionId === undefined ? undefined : sessions.get(sessionId)
      if (stored === undefined || session === undefined) return
      stored.cancelled.set(time, {
        sequence: Math.max(stored.revision, sessionRevisions.get(session.id) ?? 0) + 1,
        coachId: session.coachId,
        groupe: session.groupe,
        athleteIds: [...session.athleteIds].sort((a, b) => a - b)
      })
      deleteSession(session.id)
      yield* appendEvents(outbox, [sessionCancelled({ ...session, athleteIds: [...session.athleteIds], seriesId: id })])
    })

    const cancellations = traced("SeriesRepository.cancellations")(function*(ids: ReadonlyArray<SeriesId>) {
      return [...new Set(ids)].sort((a, b) => a - b).flatMap((seriesId) =>
        [...(series.get(seriesId)?.cancelled ?? [])]
          .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
          .map(([occurrenceStart, cancelled]): SeriesCancellation => ({ seriesId, occurrenceStart, ...cancelled }))
      )
    })

    const endBefore = traced("SeriesRepository.endBefore")(function*(id: SeriesId, from: LocalDateTime) {
      const stored = series.get(id)
      if (stored === undefined) return
      for (const [time, sessionId] of stored.occurrences) if (time >= from) deleteSession(sessionId)
      for (const time of stored.cancelled.keys()) if (time >= from) stored.cancelled.delete(time)
      if (stored.endsBefore === null || from < stored.endsBefore) {
        series.replace({ ...stored, endsBefore: from, revision: stored.revision + 1 })
      }
      // One event for the series, none per occurrence it deletes (decision 0280).
      yield* appendEvents(outbox, [seriesCancelled(id, from)])
    })

    const conflicts = traced("SeriesRepository.conflicts")(function*(
      after: DoubleBookingPosition | undefined,
      limit: number
    ) {
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
      const key = (p: DoubleBookingPosition) => [p.sessionId, p.otherSessionId, p.kind, p.personId]
      const isAfter = (booking: DoubleBooking) => {
        if (after === undefined) return true
        const [x, y] = [key(positionOfBooking(booking)), key(after)]
        const differs = x.findIndex((value, i) => value !== y[i])
        return differs !== -1 && x[differs]! > y[differs]!
      }
      const compare = (a: DoubleBooking, b: DoubleBooking) => {
        const [x, y] = [key(positionOfBooking(a)), key(positionOfBooking(b))]
        const differs = x.findIndex((value, i) => value !== y[i])
        return differs === -1 ? 0 : x[differs]! - y[differs]!
      }
      return found.sort(compare).filter(isAfter).slice(0, limit)
    })

    return SeriesRepository.of({
      create,
      findById,
      findMany,
      rewrite,
      changeOccurrence,
      createSession,
      changeSession,
      dueForExtension,
      extend,
      endBefore,
      cancelAt,
      cancellations,
      conflicts
    })
  })
)
