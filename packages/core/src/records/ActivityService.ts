import { traced } from "../shared/traced.ts"
import { Context, Effect, Layer } from "effect"
import { authorize } from "../shared/Permissions.ts"
import { ActivityRepository } from "./ActivityRepository.ts"
import { makeRecordUseCases } from "./RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* ActivityRepository
  return {
    ...makeRecordUseCases({
      entity: "Activity",
      repository,
      operations: {
        create: "activity.create",
        list: "activity.read",
        read: "activity.read",
        update: "activity.update",
        delete: "activity.delete"
      }
    }),
    listByTheme: traced("ActivityService.listByTheme")(function*(theme: string) {
      yield* authorize("activity.read")
      return yield* repository.listByTheme(theme)
    })
  }
})

export class ActivityService extends Context.Service<ActivityService, Effect.Success<typeof make>>()(
  "@club/core/ActivityService"
) {
  static readonly layer = Layer.effect(ActivityService, make)
}
