import { traced } from "../shared/traced.ts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { TaskId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import type { TaskCreate } from "./Task.ts"
import { TaskRepository } from "./TaskRepository.ts"

const isTaskId = Schema.is(TaskId)

const make = Effect.gen(function*() {
  const tasks = yield* TaskRepository
  return {
    create: traced("TaskService.create")(function*(input: TaskCreate) {
      yield* authorize("task.create")
      return yield* tasks.create(input)
    }),
    list: traced("TaskService.list")(function*() {
      yield* authorize("task.list")
      return yield* tasks.list()
    }),
    /** The deleted task, or none: an id that is not even a UUID matches no task (a retry is harmless). */
    delete: traced("TaskService.delete")(function*(id: string) {
      yield* authorize("task.delete")
      return isTaskId(id) ? yield* tasks.delete(id) : Option.none()
    })
  }
})

export class TaskService extends Context.Service<TaskService, Effect.Success<typeof make>>()(
  "@club/core/TaskService"
) {
  static readonly layer = Layer.effect(TaskService, make)
}
