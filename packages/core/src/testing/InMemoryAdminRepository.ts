import { Effect, Layer } from "effect"
import { Admin } from "../domain/Admin.ts"
import { EntityNotFound } from "../domain/Errors.ts"
import type { AdminId } from "../domain/Ids.ts"
import { AdminRepository } from "../ports/AdminRepository.ts"
import { traced } from "../tracing/traced.ts"
import { InMemoryStore } from "./InMemoryStore.ts"
import { namedRecords } from "./namedRecords.ts"
import { clearUserLink } from "./userLinks.ts"

export const InMemoryAdminRepository = Layer.effect(
  AdminRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const records = namedRecords<AdminId, Admin>(store.admins, (fields) => new Admin(fields))

    const remove = traced("AdminRepository.delete")(function*(id: AdminId) {
      if (!store.admins.delete(id)) return yield* new EntityNotFound({ entity: "Admin", id })
      clearUserLink(store, { field: "adminId", id })
    })

    return AdminRepository.of({ ...records, delete: remove })
  })
)
