import { Context, Effect, Layer } from "effect"
import { AdminRepository } from "./AdminRepository.ts"
import { AdminTable } from "./Admin.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* AdminRepository
  return makeRecordUseCases({
    entity: AdminTable.entity,
    repository,
    operations: AdminTable.operations
  })
})

export class AdminService extends Context.Service<AdminService, Effect.Success<typeof make>>()(
  "@club/core/AdminService"
) {
  static readonly layer = Layer.effect(AdminService, make)
}
