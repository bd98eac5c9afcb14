import { Context, Effect, Layer } from "effect"
import { CoachRepository } from "./CoachRepository.ts"
import { CoachTable } from "./Coach.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* CoachRepository
  return makeRecordUseCases({
    entity: CoachTable.entity,
    repository,
    operations: CoachTable.operations
  })
})

export class CoachService extends Context.Service<CoachService, Effect.Success<typeof make>>()(
  "@club/core/CoachService"
) {
  static readonly layer = Layer.effect(CoachService, make)
}
