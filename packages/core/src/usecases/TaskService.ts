import { traced } from "../tracing/traced.ts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { TaskId } from "../domain/Ids.ts"
import { authorize } from "../domain/Permissions.ts"
import type { TaskCreate } from "../domain/Task.ts"
import { TaskRepository } from "../ports/TaskRepository.ts"

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
