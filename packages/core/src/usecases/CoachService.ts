import { Context, Effect, Layer } from "effect"
import { CoachRepository } from "../ports/CoachRepository.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* CoachRepository
  return makeRecordUseCases({
    entity: "Coach",
    repository,
    operations: {
      create: "coach.create",
      list: "coach.read",
      read: "coach.read",
      update: "coach.update",
      delete: "coach.delete"
    }
  })
})

export class CoachService extends Context.Service<CoachService, Effect.Success<typeof make>>()(
  "@club/core/CoachService"
) {
  static readonly layer = Layer.effect(CoachService, make)
}
