import { Context, type Effect, type Option } from "effect"
import type { Athlete, AthleteCreate, AthleteUpdate } from "./Athlete.ts"
import type { EntityNotFound, IdAlreadyInUse, UnknownReferences } from "../shared/Errors.ts"
import type { AthleteId } from "../shared/Ids.ts"

/**
 * Athletes, and their memberships of sessions.
 *
 * Ids, as for coaches, admins and sessions (CONTRACT.md "Identifiers"): a create without an id
 * gets a generated one; a supplied id (1 to `Limits.maxSuppliedId`, which the input's schema
 * checks) is used when no record of the kind has it, and refused with `IdAlreadyInUse` (entity,
 * id) otherwise, nothing written. Generated ids come after every id generated or supplied before
 * (so a supplied id below them, when free, does not move them back), never collide with a supplied
 * one, are never handed out twice (not even after a delete), and end at `Limits.maxGeneratedId`.
 *
 * Every write is all or nothing: a refused write has changed nothing. Lists are in id order.
 */
export class AthleteRepository extends Context.Service<AthleteRepository, {
  create(input: AthleteCreate): Effect.Effect<Athlete, IdAlreadyInUse>
  findById(id: AthleteId): Effect.Effect<Option.Option<Athlete>>
  list(): Effect.Effect<ReadonlyArray<Athlete>>
  /**
   * Replaces name, categorie and niveau. With `sessionIds` (not null), the athlete's memberships
   * become exactly those sessions (repeats count once; `[]` leaves none). A missing athlete:
   * `EntityNotFound`; then any unknown session: `UnknownReferences` (field `sessionIds`, entity
   * `Session`, every unknown id ascending without repeats), and nothing changes.
   */
  update(id: AthleteId, input: AthleteUpdate): Effect.Effect<Athlete, EntityNotFound | UnknownReferences>
  /**
   * Also removes the athlete from every session, and clears the link of the user linked to it
   * (`athleteId` null; the user stays, role unchanged).
   */
  delete(id: AthleteId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/AthleteRepository") {}
