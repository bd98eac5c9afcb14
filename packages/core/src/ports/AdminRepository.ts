import { Context, type Effect, type Option } from "effect"
import type { Admin, AdminCreate, AdminUpdate } from "../domain/Admin.ts"
import type { EntityNotFound, IdAlreadyInUse } from "../domain/Errors.ts"
import type { AdminId } from "../domain/Ids.ts"

export class AdminRepository extends Context.Service<AdminRepository, {
  create(input: AdminCreate): Effect.Effect<Admin, IdAlreadyInUse>
  findById(id: AdminId): Effect.Effect<Option.Option<Admin>>
  list(): Effect.Effect<ReadonlyArray<Admin>>
  update(id: AdminId, input: AdminUpdate): Effect.Effect<Admin, EntityNotFound>
  /** Clears any user link to it. */
  delete(id: AdminId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/AdminRepository") {}
