import { Context, type Effect, type Option } from "effect"
import type { Coach, CoachCreate, CoachUpdate } from "./Coach.ts"
import type { CoachStillOwnsSessions, EntityNotFound, IdAlreadyInUse } from "../shared/Errors.ts"
import type { CoachId } from "../shared/Ids.ts"

/**
 * Coaches. Ids, supplied or generated, follow the rules of `AthleteRepository`; every write is all
 * or nothing; lists are in id order.
 */
export class CoachRepository extends Context.Service<CoachRepository, {
  create(input: CoachCreate): Effect.Effect<Coach, IdAlreadyInUse>
  findById(id: CoachId): Effect.Effect<Option.Option<Coach>>
  list(): Effect.Effect<ReadonlyArray<Coach>>
  /** Replaces the name only when the key is present (`null` clears it); `{}` answers the coach as stored. */
  update(id: CoachId, input: CoachUpdate): Effect.Effect<Coach, EntityNotFound>
  /**
   * A missing coach: `EntityNotFound`. A coach named as `coachId` by sessions is not deleted:
   * `CoachStillOwnsSessions` with their count, also against a session created at the same moment.
   * Otherwise clears the link of the user linked to it (`coachId` null; the user stays).
   */
  delete(id: CoachId): Effect.Effect<void, EntityNotFound | CoachStillOwnsSessions>
}>()("@club/core/CoachRepository") {}
