import { Context, type Effect, type Option, type Stream } from "effect"
import type { ActivitySummary } from "../records/Activity.ts"
import type { EntityNotFound, IdAlreadyInUse, ScheduleConflict, UnknownReferences } from "../shared/Errors.ts"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { Session, SessionCreate, SessionFilter, SessionSummary, SessionUpdate } from "./Session.ts"
import type { SessionPosition, SessionQuery } from "./SessionPage.ts"
import type { FeedScope, FeedSession } from "../feeds/FeedToken.ts"

/**
 * Bounds on `creneau`, both exclusive. A session without a `creneau` is within no bound: it is
 * listed only when neither is given.
 */
export interface CreneauRange {
  readonly after?: LocalDateTime
  readonly before?: LocalDateTime
}

/**
 * Sessions, their athletes (memberships) and their activities (see `ActivityRepository`).
 *
 * A session answers its `athleteIds` and `activiteIds` ascending, without repeats. Ids, supplied
 * or generated, follow the rules of `AthleteRepository`. Every write is all or nothing: a refused
 * one has changed nothing. Unknown ids are refused with `UnknownReferences` naming the field
 * (`athleteIds`, `activiteIds`, `coachId`), its entity, and every unknown id of that field,
 * ascending without repeats; fields are checked in that order, and the first with unknown ids is
 * the one refused. Lists are in id order.
 */
export class SessionRepository extends Context.Service<SessionRepository, {
  /**
   * Every athlete, activity and the coach (when given) must exist; then a supplied id must be free
   * (`IdAlreadyInUse`). The listed activities move into the new session, leaving any session they
   * were in. With `ScheduleSettings.seedRefusesConflicts`, the session books its coach and
   * athletes as `SeriesRepository.createSession` does, and a double booking refuses the create
   * (`ScheduleConflict`); otherwise it books no one.
   */
  create(input: SessionCreate): Effect.Effect<Session, IdAlreadyInUse | UnknownReferences | ScheduleConflict>
  findById(id: SessionId): Effect.Effect<Option.Option<Session>>
  /** The sessions that match `filter` (every session without one). */
  list(filter?: SessionFilter): Effect.Effect<ReadonlyArray<Session>>
  /** Every session in id order, read as it is consumed: memory does not grow with their number. */
  stream(): Stream.Stream<Session>
  /**
   * Applies each field only when its key is present: `duree` (null too), `athleteIds` (the
   * memberships become exactly these), `activiteIds` (listed activities move in from wherever
   * they were; the session's activities no longer listed are detached, `sessionId` null, not
   * deleted). A missing session: `EntityNotFound`, before any id is checked. When `duree` or
   * `athleteIds` is given, a session that held bookings is booked again for its new length and
   * athletes (a booking taken elsewhere meanwhile is left out); with
   * `ScheduleSettings.seedRefusesConflicts`, every session is, and a double booking refuses the
   * update (`ScheduleConflict`, nothing changed).
   */
  update(
    id: SessionId,
    input: SessionUpdate
  ): Effect.Effect<Session, EntityNotFound | UnknownReferences | ScheduleConflict>
  /** Deletes the session's activities and memberships too; the athletes stay. */
  delete(id: SessionId): Effect.Effect<void, EntityNotFound>
  /**
   * At most `limit` sessions matching every filter of `query`, in (`creneau`, `id`) order, a
   * session without a `creneau` before every other, starting strictly after `after`: keyset
   * paging, so a session written between two pages never makes the next one repeat or skip a
   * session that was already there. `from` is inclusive, `to` exclusive; a session without a
   * `creneau` is within neither. One statement whatever the page's size.
   */
  page(query: SessionQuery, after: SessionPosition | undefined, limit: number): Effect.Effect<ReadonlyArray<Session>>
  /** The sessions of a feed's scope that have a `creneau`, in (`creneau`, `id`) order, with their revisions. One statement. */
  feedSessions(scope: FeedScope): Effect.Effect<ReadonlyArray<FeedSession>>
  /**
   * A marker of the feed's content: it changes whenever a session enters or leaves the scope or
   * one of its sessions changes. One cheap statement, nothing rendered (a feed's ETag).
   */
  feedVersion(scope: FeedScope): Effect.Effect<string>
  summaries(): Effect.Effect<ReadonlyArray<SessionSummary>>
  /** The sessions the athlete is a member of, within the range; none for an unknown athlete. */
  summariesOfAthlete(athleteId: AthleteId, range: CreneauRange): Effect.Effect<ReadonlyArray<SessionSummary>>
  /** The session's activities in id order; none for an unknown session. */
  activitySummaries(sessionId: SessionId): Effect.Effect<ReadonlyArray<ActivitySummary>>
}>()("@club/core/SessionRepository") {}
