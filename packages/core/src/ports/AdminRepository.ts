import { Context, type Effect, type Option } from "effect"
import type { Admin, AdminCreate, AdminUpdate } from "../domain/Admin.ts"
import type { EntityNotFound, IdAlreadyInUse } from "../domain/Errors.ts"
import type { AdminId } from "../domain/Ids.ts"

/**
 * Admin records (the people; ADMIN users are `UserRepository`'s). Ids, supplied or generated,
 * follow the rules of `AthleteRepository`; every write is all or nothing; lists are in id order.
 */
export class AdminRepository extends Context.Service<AdminRepository, {
  create(input: AdminCreate): Effect.Effect<Admin, IdAlreadyInUse>
  findById(id: AdminId): Effect.Effect<Option.Option<Admin>>
  list(): Effect.Effect<ReadonlyArray<Admin>>
  /** Replaces the name only when the key is present (`null` clears it); `{}` answers the admin as stored. */
  update(id: AdminId, input: AdminUpdate): Effect.Effect<Admin, EntityNotFound>
  /** Clears the link of the user linked to it (`adminId` null; the user stays, an ADMIN still). */
  delete(id: AdminId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/AdminRepository") {}
