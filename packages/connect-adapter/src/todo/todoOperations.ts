import { type CurrentActor, type DomainError, TaskService } from "@club/core"
import type { MessageInitShape } from "@bufbuild/protobuf"
import { Effect, Option } from "effect"
import { decodeTaskCreate } from "./decodeTaskCreate.ts"
import type {
  CreateTaskRequest,
  DeleteTaskRequest,
  ListTasksRequest,
  ListTasksResponseSchema
} from "@club/contract/todo"
import { nothingDeleted, type TaskResponseInit, taskResponse } from "./taskResponse.ts"

type Operation<I, O> = (request: I) => Effect.Effect<O, DomainError, TaskService | CurrentActor>

/**
 * What each RPC of TodoService does, as core's TaskService run for the current actor. Each is
 * one generator function for every call, not an `Effect.gen` of a new one per call
 * (docs/DECISIONS.md, "No generator function made per request").
 */
export const todoOperations: {
  readonly createTask: Operation<CreateTaskRequest, TaskResponseInit>
  readonly listTasks: Operation<ListTasksRequest, MessageInitShape<typeof ListTasksResponseSchema>>
  readonly deleteTask: Operation<DeleteTaskRequest, TaskResponseInit>
} = {
  createTask: Effect.fnUntraced(function*(request: CreateTaskRequest) {
    const input = yield* decodeTaskCreate(request)
    const tasks = yield* TaskService
    return taskResponse(yield* tasks.create(input))
  }),

  listTasks: Effect.fnUntraced(function*() {
    const tasks = yield* TaskService
    const all = yield* tasks.list()
    return { tasks: all.map(taskResponse) }
  }),

  deleteTask: Effect.fnUntraced(function*(request: DeleteTaskRequest) {
    const tasks = yield* TaskService
    const deleted = yield* tasks.delete(request.id)
    return Option.match(deleted, { onNone: () => nothingDeleted(request.id), onSome: taskResponse })
  })
}
