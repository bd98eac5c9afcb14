import { Context, Effect, Layer } from "effect"
import { AdminRepository } from "../ports/AdminRepository.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* AdminRepository
  return makeRecordUseCases({
    entity: "Admin",
    repository,
    operations: {
      create: "admin.create",
      list: "admin.read",
      read: "admin.read",
      update: "admin.update",
      delete: "admin.delete"
    }
  })
})

export class AdminService extends Context.Service<AdminService, Effect.Success<typeof make>>()(
  "@club/core/AdminService"
) {
  static readonly layer = Layer.effect(AdminService, make)
}
