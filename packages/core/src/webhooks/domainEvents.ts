import type { NewEvent } from "./Webhook.ts"

/**
 * The outbox events of sessions, series, activities and users (issue 42 item 6), built the same way
 * by both stores from what the change wrote, so that the in-memory and the database stores write
 * the same events. Each payload is a Schema of DeliveredEvent.ts; docs/events.md is the catalogue.
 */

/** What a session event tells of its session, read from the session as the change leaves it. */
export interface SessionFacts {
  readonly id: number
  readonly name: string | null
  readonly creneau: string | null
  readonly duree: number | null
  /** The series the session is an occurrence of; null for a session of its own. */
  readonly seriesId: number | null
}

const sessionData = (session: SessionFacts) => ({
  name: session.name,
  creneau: session.creneau,
  duree: session.duree,
  seriesId: session.seriesId
})

export const sessionCreated = (session: SessionFacts): NewEvent => ({
  sessionId: session.id,
  type: "sessionCreated",
  data: sessionData(session)
})

/**
 * The session as it is now and its start and length before: a receiver (and the notice rules)
 * tell a move (`previousCreneau` or `previousDuree` differs) from any other edit.
 */
export const sessionChanged = (
  session: SessionFacts,
  previous: { readonly creneau: string | null; readonly duree: number | null }
): NewEvent => ({
  sessionId: session.id,
  type: "sessionChanged",
  data: { ...sessionData(session), previousCreneau: previous.creneau, previousDuree: previous.duree }
})

/**
 * A session deleted, or an occurrence of a series cancelled: the session as it was, with whom it
 * invited (its own athletes, ascending, and its group's label), since the session and its
 * memberships are gone when the event's notices are written (docs/notices.md).
 */
export const sessionCancelled = (
  session: SessionFacts & { readonly groupe: string | null; readonly athleteIds: ReadonlyArray<number> }
): NewEvent => ({
  sessionId: session.id,
  type: "sessionCancelled",
  data: {
    ...sessionData(session),
    groupe: session.groupe,
    athleteIds: [...session.athleteIds].sort((a, b) => a - b)
  }
})

/** What a series event tells of its series. */
export interface SeriesFacts {
  readonly id: number
  readonly name: string | null
  readonly groupe: string | null
  readonly start: string
  readonly rrule: string
  readonly duree: number
}

export const seriesCreated = (series: SeriesFacts): NewEvent => ({
  sessionId: null,
  type: "seriesCreated",
  data: {
    seriesId: series.id,
    name: series.name,
    groupe: series.groupe,
    start: series.start,
    rrule: series.rrule,
    duree: series.duree
  }
})

/**
 * A change of the series from its occurrence at `from` on; `continuedBy` names the series that
 * holds those occurrences now when the change continued it as a new one (null otherwise).
 */
export const seriesChanged = (seriesId: number, from: string, continuedBy: number | null): NewEvent => ({
  sessionId: null,
  type: "seriesChanged",
  data: { seriesId, from, continuedBy }
})

/** The series ended before `from`: its occurrences from there on are deleted. */
export const seriesCancelled = (seriesId: number, from: string): NewEvent => ({
  sessionId: null,
  type: "seriesCancelled",
  data: { seriesId, from }
})

/** What an activity event tells of its activity. */
export interface ActivityFacts {
  readonly id: number
  readonly name: string | null
  readonly theme: string | null
  readonly duree: number | null
  readonly sessionId: number | null
}

type ActivityEventType = "activityCreated" | "activityChanged" | "activityDeleted"

/** In the stream of the activity's session; one detached from every session is in the club's stream. */
export const activityEvent = (type: ActivityEventType, activity: ActivityFacts): NewEvent => ({
  sessionId: activity.sessionId,
  type,
  data: { activityId: activity.id, name: activity.name, theme: activity.theme, duree: activity.duree }
})

/**
 * What a user event tells: never the password, its hash, a token or the email address (personal
 * data a receiver reads, if allowed, through the API).
 */
export interface UserFacts {
  readonly id: number
  readonly name: string
  readonly role: string
  readonly coachId: number | null
  readonly athleteId: number | null
  readonly adminId: number | null
}

export const userEvent = (type: "userCreated" | "userChanged", user: UserFacts): NewEvent => ({
  sessionId: null,
  type,
  data: {
    userId: user.id,
    name: user.name,
    role: user.role,
    coachId: user.coachId,
    athleteId: user.athleteId,
    adminId: user.adminId
  }
})

export const userDeleted = (userId: number): NewEvent => ({
  sessionId: null,
  type: "userDeleted",
  data: { userId }
})
