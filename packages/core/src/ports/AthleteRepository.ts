import { Context, type Effect, type Option } from "effect"
import type { Athlete, AthleteCreate, AthleteUpdate } from "../domain/Athlete.ts"
import type { EntityNotFound, IdAlreadyInUse, UnknownReferences } from "../domain/Errors.ts"
import type { AthleteId } from "../domain/Ids.ts"

export class AthleteRepository extends Context.Service<AthleteRepository, {
  create(input: AthleteCreate): Effect.Effect<Athlete, IdAlreadyInUse>
  findById(id: AthleteId): Effect.Effect<Option.Option<Athlete>>
  list(): Effect.Effect<ReadonlyArray<Athlete>>
  /** One transaction: the fields, and the memberships when `sessionIds` is given; nothing changes on failure. */
  update(id: AthleteId, input: AthleteUpdate): Effect.Effect<Athlete, EntityNotFound | UnknownReferences>
  /** Also removes the athlete's memberships and clears any user link to it. */
  delete(id: AthleteId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/AthleteRepository") {}
