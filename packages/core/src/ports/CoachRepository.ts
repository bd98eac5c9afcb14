import { Context, type Effect, type Option } from "effect"
import type { Coach, CoachCreate, CoachUpdate } from "../domain/Coach.ts"
import type { CoachStillOwnsSessions, EntityNotFound, IdAlreadyInUse } from "../domain/Errors.ts"
import type { CoachId } from "../domain/Ids.ts"

export class CoachRepository extends Context.Service<CoachRepository, {
  create(input: CoachCreate): Effect.Effect<Coach, IdAlreadyInUse>
  findById(id: CoachId): Effect.Effect<Option.Option<Coach>>
  list(): Effect.Effect<ReadonlyArray<Coach>>
  update(id: CoachId, input: CoachUpdate): Effect.Effect<Coach, EntityNotFound>
  /** Refused while the coach owns sessions; clears any user link to it. */
  delete(id: CoachId): Effect.Effect<void, EntityNotFound | CoachStillOwnsSessions>
}>()("@club/core/CoachRepository") {}
