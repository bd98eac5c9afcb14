import { Context, Effect, Layer } from "effect"
import { AthleteRepository } from "./AthleteRepository.ts"
import { AthleteTable } from "./Athlete.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* AthleteRepository
  return makeRecordUseCases({
    entity: AthleteTable.entity,
    repository,
    operations: AthleteTable.operations,
    // An athlete may update the athlete record linked to their own user.
    owner: (athleteId) => ({ athleteId })
  })
})

export class AthleteService extends Context.Service<AthleteService, Effect.Success<typeof make>>()(
  "@club/core/AthleteService"
) {
  static readonly layer = Layer.effect(AthleteService, make)
}
