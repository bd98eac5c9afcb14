import { Context, type Effect, type Option, type Stream } from "effect"
import type { ActivitySummary } from "../domain/Activity.ts"
import type { EntityNotFound, IdAlreadyInUse, UnknownReferences } from "../domain/Errors.ts"
import type { AthleteId, SessionId } from "../domain/Ids.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import type { Session, SessionCreate, SessionSummary, SessionUpdate } from "../domain/Session.ts"

/** Bounds on `creneau`, both exclusive. */
export interface CreneauRange {
  readonly after?: LocalDateTime
  readonly before?: LocalDateTime
}

export class SessionRepository extends Context.Service<SessionRepository, {
  /** One transaction; every referenced id must exist, listed activities move into the new session. */
  create(input: SessionCreate): Effect.Effect<Session, IdAlreadyInUse | UnknownReferences>
  findById(id: SessionId): Effect.Effect<Option.Option<Session>>
  list(): Effect.Effect<ReadonlyArray<Session>>
  /** Every session in id order, read as it is consumed: memory does not grow with their number. */
  stream(): Stream.Stream<Session>
  /** One transaction; activities no longer listed are detached, not deleted. */
  update(id: SessionId, input: SessionUpdate): Effect.Effect<Session, EntityNotFound | UnknownReferences>
  /** Deletes the session's activities and memberships too. */
  delete(id: SessionId): Effect.Effect<void, EntityNotFound>
  summaries(): Effect.Effect<ReadonlyArray<SessionSummary>>
  summariesOfAthlete(athleteId: AthleteId, range: CreneauRange): Effect.Effect<ReadonlyArray<SessionSummary>>
  activitySummaries(sessionId: SessionId): Effect.Effect<ReadonlyArray<ActivitySummary>>
}>()("@club/core/SessionRepository") {}
