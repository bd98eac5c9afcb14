import { Effect, Layer, Option, Stream } from "effect"
import { Activity, ActivitySummary } from "../records/Activity.ts"
import { EntityNotFound, IdAlreadyInUse, ScheduleConflict } from "../shared/Errors.ts"
import type { ActivityId, AthleteId, SeriesId, SessionId, UserId } from "../shared/Ids.ts"
import type { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import { invitedByMembership, type MembershipTables } from "../membership/invitations.ts"
import {
  Session,
  type SessionCreate,
  type SessionFilter,
  SessionSummary,
  type SessionUpdate,
  sessionValuesOf
} from "./Session.ts"
import type { FeedScope, FeedSession } from "../feeds/FeedToken.ts"
import type { SessionPosition, SessionQuery } from "./SessionPage.ts"
import { type CreneauRange, SessionRepository } from "./SessionRepository.ts"
import { traced } from "../shared/traced.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import { bookingsOf } from "./bookings.ts"
import { InMemoryStore, sessionOfStored, type StoredSession } from "../shared/InMemoryStore.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import { sessionCancelled, sessionChanged, sessionCreated, type SessionFacts } from "../webhooks/domainEvents.ts"

/** Both bounds exclusive; a session without a creneau is outside any bound, as SQL's comparisons with NULL are. */
const within = (creneau: LocalDateTime | null, range: CreneauRange): boolean =>
  (range.after === undefined || (creneau !== null && creneau > range.after)) &&
  (range.before === undefined || (creneau !== null && creneau < range.before))

/** (creneau, id) order, a session without a creneau first, as the port says. */
const comparePositions = (a: SessionPosition, b: SessionPosition): number =>
  a.creneau === b.creneau
    ? a.id - b.id
    : a.creneau === null
    ? -1
    : b.creneau === null
    ? 1
    : a.creneau < b.creneau
    ? -1
    : 1

const matchesQuery = (session: Session, query: SessionQuery): boolean =>
  (query.from === undefined || (session.creneau !== null && session.creneau >= query.from)) &&
  (query.to === undefined || (session.creneau !== null && session.creneau < query.to)) &&
  (query.coachId === undefined || session.coachId === query.coachId) &&
  (query.groupe === undefined || session.groupe === query.groupe) &&
  (query.athleteId === undefined || session.athleteIds.includes(query.athleteId))

/** Whether the athlete is invited to the session: one of its athletes, or a member of its group on its day. */
const invites = (tables: MembershipTables, session: Session, athleteId: AthleteId) =>
  session.athleteIds.includes(athleteId) ||
  // A feed's session has a creneau: its day is the creneau's, whatever today is.
  invitedByMembership(tables, session, athleteId, "" as CalendarDate)

const inScope = (
  tables: MembershipTables & { readonly guardians: ReadonlyMap<AthleteId, ReadonlySet<UserId>> },
  session: Session,
  scope: FeedScope
): boolean => {
  if (session.creneau === null) return false
  switch (scope.kind) {
    case "athlete":
      return invites(tables, session, scope.athleteId)
    case "coach":
      return session.coachId === scope.coachId
    case "group":
      return session.groupe === scope.groupe
    case "guardian":
      for (const [athleteId, users] of tables.guardians) {
        if (users.has(scope.userId) && invites(tables, session, athleteId)) return true
      }
      return false
  }
}

/** FNV-1a of a text, in hex: a short marker of content, not a cryptographic hash. */
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash.toString(16)
}

export const InMemorySessionRepository = Layer.effect(
  SessionRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const {
      activities,
      athleteBookings,
      athletes,
      coachBookings,
      coaches,
      series,
      sessionRevisions: revisions,
      sessions
    } = store
    const bookings = bookingsOf(store)
    const outbox = yield* InMemoryOutbox

    /** The series the session is an occurrence of, as the database's `series_id` holds it. */
    const seriesIdOf = (id: SessionId): SeriesId | null => {
      for (const stored of series.values()) if ([...stored.occurrences.values()].includes(id)) return stored.id
      return null
    }
    const factsOf = (stored: StoredSession): SessionFacts => ({ ...stored, seriesId: seriesIdOf(stored.id) })

    /** Whether the session holds any booking (it was written through /planning, or booked by the setting). */
    const holdsBookings = (id: SessionId) => coachBookings.has(id) || (athleteBookings.get(id)?.size ?? 0) > 0

    /** Books the session's coach and athletes again; answers what `book` answers. */
    const rebook = (id: SessionId, timeZone: string) => {
      const stored = sessions.get(id)!
      bookings.unbook([id])
      return stored.creneau === null || stored.duree === null
        ? { skipped: false, met: [] }
        : bookings.book(timeZone, [{
          sessionId: id,
          coachId: stored.coachId,
          athleteIds: [...stored.athleteIds],
          creneau: stored.creneau,
          duree: stored.duree
        }])
    }

    /** Each session's activity ids, ascending, from one pass over the activities. */
    const activityIdsBySession = () => {
      const bySession = new Map<SessionId, Array<ActivityId>>()
      for (const activity of activities.all()) {
        if (activity.sessionId === null) continue
        const ids = bySession.get(activity.sessionId)
        if (ids === undefined) bySession.set(activity.sessionId, [activity.id])
        else ids.push(activity.id)
      }
      return bySession
    }

    const read = (stored: StoredSession) => sessionOfStored(stored, activityIdsBySession().get(stored.id) ?? [])

    const readAll = () => {
      const bySession = activityIdsBySession()
      return sessions.all().map((stored) => sessionOfStored(stored, bySession.get(stored.id) ?? []))
    }

    /** An activity belongs to one session: listed activities leave the session they were in. */
    const moveActivitiesInto = (sessionId: SessionId, activityIds: Iterable<ActivityId>) => {
      for (const id of new Set(activityIds)) {
        const activity = activities.get(id)!
        if (activity.sessionId !== sessionId) activities.replace(new Activity({ ...activity, sessionId }))
      }
    }

    /** The session's activities no longer listed are detached (sessionId null), not deleted. */
    const replaceActivities = (sessionId: SessionId, activityIds: ReadonlyArray<ActivityId>) => {
      const listed = new Set(activityIds)
      for (const activity of activities.values()) {
        if (activity.sessionId === sessionId && !listed.has(activity.id)) {
          activities.replace(new Activity({ ...activity, sessionId: null }))
        }
      }
      moveActivitiesInto(sessionId, listed)
    }

    const create = traced("SessionRepository.create")(function*(input: SessionCreate) {
      const unknown = athletes.unknownReferences("athleteIds", input.athleteIds) ??
        activities.unknownReferences("activiteIds", input.activiteIds) ??
        (input.coachId === null ? undefined : coaches.unknownReferences("coachId", [input.coachId]))
      if (unknown !== undefined) return yield* unknown
      const id = sessions.newId(input.id)
      if (id instanceof IdAlreadyInUse) return yield* id
      const stored = sessions.insert({
        ...sessionValuesOf(input),
        id,
        athleteIds: new Set<AthleteId>(input.athleteIds)
      })
      const settings = yield* ScheduleSettings
      if (settings.seedRefusesConflicts === true) {
        const booked = rebook(id, settings.timeZone)
        if (booked.skipped) {
          bookings.unbook([id])
          sessions.delete(id)
          return yield* new ScheduleConflict({ sessionIds: booked.met })
        }
      }
      moveActivitiesInto(id, input.activiteIds)
      yield* appendEvents(outbox, [sessionCreated(factsOf(stored))])
      return read(stored)
    })

    const findById = traced("SessionRepository.findById")(function*(id: SessionId) {
      return Option.map(Option.fromNullishOr(sessions.get(id)), read)
    })

    const list = traced("SessionRepository.list")(function*(filter: SessionFilter = {}) {
      const wanted = Object.entries(filter) as ReadonlyArray<[keyof SessionFilter, unknown]>
      return readAll().filter((session) => wanted.every(([field, value]) => session[field] === value))
    })

    const stream = () =>
      Stream.suspend(() => Stream.fromIterable(readAll())).pipe(Stream.withSpan("SessionRepository.stream"))

    const update = traced("SessionRepository.update")(function*(id: SessionId, input: SessionUpdate) {
      const stored = sessions.get(id)
      if (stored === undefined) return yield* new EntityNotFound({ entity: "Session", id })
      const unknown =
        (input.athleteIds === undefined ? undefined : athletes.unknownReferences("athleteIds", input.athleteIds)) ??
          (input.activiteIds === undefined ? undefined : activities.unknownReferences("activiteIds", input.activiteIds))
      if (unknown !== undefined) return yield* unknown
      const settings = yield* ScheduleSettings
      const rebooked = (input.duree !== undefined || input.athleteIds !== undefined) &&
        (settings.seedRefusesConflicts === true || holdsBookings(id))
      const savedCoach = coachBookings.get(id)
      const savedAthletes = athleteBookings.get(id)
      const updated = sessions.replace({
        ...stored,
        duree: input.duree === undefined ? stored.duree : input.duree,
        athleteIds: input.athleteIds === undefined ? stored.athleteIds : new Set(input.athleteIds)
      })
      if (rebooked) {
        const booked = rebook(id, settings.timeZone)
        if (booked.skipped && settings.seedRefusesConflicts === true) {
          // Nothing changed, as the database's rolled-back transaction.
          sessions.replace(stored)
          bookings.unbook([id])
          if (savedCoach !== undefined) coachBookings.set(id, savedCoach)
          if (savedAthletes !== undefined) athleteBookings.set(id, savedAthletes)
          return yield* new ScheduleConflict({ sessionIds: booked.met })
        }
      }
      if (input.duree !== undefined && input.duree !== stored.duree) revisions.set(id, (revisions.get(id) ?? 0) + 1)
      if (input.activiteIds !== undefined) replaceActivities(id, input.activiteIds)
      // An occurrence whose values the seed's update changed is an exception of its series, as one
      // changed through /planning: a later change of the series leaves it as it is.
      if (input.duree !== undefined || input.athleteIds !== undefined) {
        for (const stored of series.values()) {
          if ([...stored.occurrences.values()].includes(id)) stored.overridden.add(id)
        }
      }
      // Every accepted edit is told, even one that leaves the values as they were (decision 0283).
      yield* appendEvents(outbox, [sessionChanged(factsOf(updated), stored)])
      return read(updated)
    })

    const remove = traced("SessionRepository.delete")(function*(id: SessionId) {
      const stored = sessions.get(id)
      if (stored === undefined) return yield* new EntityNotFound({ entity: "Session", id })
      const facts = { ...stored, seriesId: seriesIdOf(id), athleteIds: [...stored.athleteIds] }
      sessions.delete(id)
      yield* appendEvents(outbox, [sessionCancelled(facts)])
      // Its memberships went with it; its activities go too.
      for (const activity of activities.values()) if (activity.sessionId === id) activities.delete(activity.id)
    })

    const page = traced("SessionRepository.page")(
      function*(query: SessionQuery, after: SessionPosition | undefined, limit: number) {
        return readAll()
          .filter((session) =>
            matchesQuery(session, query) && (after === undefined || comparePositions(session, after) > 0)
          )
          .sort(comparePositions)
          .slice(0, limit)
      }
    )

    /** Each occurrence's series and time, from the series' side, as the sessions' columns hold it in the database. */
    const occurrenceOf = () => {
      const found = new Map<SessionId, { seriesId: SeriesId; occurrenceStart: LocalDateTime }>()
      for (const stored of series.values()) {
        for (const [occurrenceStart, sessionId] of stored.occurrences) {
          found.set(sessionId, { seriesId: stored.id, occurrenceStart })
        }
      }
      return found
    }

    const feedSessions = traced("SessionRepository.feedSessions")(function*(scope: FeedScope) {
      const occurrences = occurrenceOf()
      return readAll()
        .filter((session) => inScope(store, session, scope))
        .sort(comparePositions)
        .map((session): FeedSession => {
          const occurrence = occurrences.get(session.id)
          return {
            session,
            revision: revisions.get(session.id) ?? 0,
            seriesId: occurrence?.seriesId ?? null,
            occurrenceStart: occurrence?.occurrenceStart ?? null
          }
        })
    })

    const feedVersion = traced("SessionRepository.feedVersion")(function*(scope: FeedScope) {
      const feed = yield* feedSessions(scope)
      const seriesRevision = (id: SeriesId | null) => id === null ? null : series.get(id)?.revision ?? null
      // The cancellations of the feed's series, as the database's version has them.
      const seriesIds = [...new Set(feed.flatMap((f) => f.seriesId === null ? [] : [f.seriesId]))].sort((a, b) => a - b)
      const cancelled = seriesIds.map((id) => [id, [...(series.get(id)?.cancelled ?? [])].sort()])
      return `${feed.length}-${
        fnv1a(JSON.stringify([
          feed.map((f) => [f.session, f.revision, f.occurrenceStart, seriesRevision(f.seriesId)]),
          cancelled
        ]))
      }`
    })

    const summaries = traced("SessionRepository.summaries")(function*() {
      return sessions.all().map((stored) => new SessionSummary({ id: stored.id, name: stored.name }))
    })

    const summariesOfAthlete = traced("SessionRepository.summariesOfAthlete")(
      function*(athleteId: AthleteId, range: CreneauRange) {
        return sessions.all()
          .filter((stored) => stored.athleteIds.has(athleteId) && within(stored.creneau, range))
          .map((stored) => new SessionSummary({ id: stored.id, name: stored.name }))
      }
    )

    const activitySummaries = traced("SessionRepository.activitySummaries")(function*(sessionId: SessionId) {
      return activities.all()
        .filter((activity) => activity.sessionId === sessionId)
        .map((activity) => new ActivitySummary({ id: activity.id, name: activity.name }))
    })

    return SessionRepository.of({
      create,
      findById,
      list,
      stream,
      update,
      delete: remove,
      page,
      feedSessions,
      feedVersion,
      summaries,
      summariesOfAthlete,
      activitySummaries
    })
  })
)
