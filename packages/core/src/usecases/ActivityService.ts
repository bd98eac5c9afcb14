import { traced } from "../tracing/traced.ts"
import { Context, Effect, Layer } from "effect"
import type { ActivityInput } from "../domain/Activity.ts"
import type { ActivityId } from "../domain/Ids.ts"
import { authorize } from "../domain/Permissions.ts"
import { ActivityRepository } from "../ports/ActivityRepository.ts"
import { found } from "./found.ts"

const make = Effect.gen(function*() {
  const activities = yield* ActivityRepository
  return {
    create: traced("ActivityService.create")(function*(input: ActivityInput) {
      yield* authorize("activity.create")
      return yield* activities.create(input)
    }),
    get: traced("ActivityService.get")(function*(id: ActivityId) {
      yield* authorize("activity.read")
      return yield* activities.findById(id).pipe(found("Activity", id))
    }),
    list: traced("ActivityService.list")(function*() {
      yield* authorize("activity.read")
      return yield* activities.list()
    }),
    listByTheme: traced("ActivityService.listByTheme")(function*(theme: string) {
      yield* authorize("activity.read")
      return yield* activities.listByTheme(theme)
    }),
    update: traced("ActivityService.update")(function*(id: ActivityId, input: ActivityInput) {
      yield* authorize("activity.update")
      return yield* activities.update(id, input)
    }),
    delete: traced("ActivityService.delete")(function*(id: ActivityId) {
      yield* authorize("activity.delete")
      return yield* activities.delete(id)
    })
  }
})

export class ActivityService extends Context.Service<ActivityService, Effect.Success<typeof make>>()(
  "@club/core/ActivityService"
) {
  static readonly layer = Layer.effect(ActivityService, make)
}
