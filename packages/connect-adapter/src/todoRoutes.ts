import { TaskService } from "@club/core"
import type { ConnectRouter } from "@connectrpc/connect"
import { Effect, Option } from "effect"
import { asCaller } from "./asCaller.ts"
import { decodeTaskCreate } from "./decodeTaskCreate.ts"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { TodoService } from "./gen.ts"
import { nothingDeleted, taskResponse } from "./taskResponse.ts"

/** Registers TodoService: each RPC is core's TaskService run as the authenticated caller. */
export const makeTodoRoutes = (run: EdgeRunner<TaskService>) => (router: ConnectRouter): void => {
  router.service(TodoService, {
    createTask: (request, context) =>
      run(
        Effect.gen(function*() {
          const input = yield* decodeTaskCreate(request)
          const tasks = yield* TaskService
          return taskResponse(yield* tasks.create(input))
        }).pipe(asCaller(context)),
        context
      ),

    listTasks: (_request, context) =>
      run(
        Effect.gen(function*() {
          const tasks = yield* TaskService
          const all = yield* tasks.list()
          return { tasks: all.map(taskResponse) }
        }).pipe(asCaller(context)),
        context
      ),

    deleteTask: (request, context) =>
      run(
        Effect.gen(function*() {
          const tasks = yield* TaskService
          const deleted = yield* tasks.delete(request.id)
          return Option.match(deleted, { onNone: () => nothingDeleted(request.id), onSome: taskResponse })
        }).pipe(asCaller(context)),
        context
      )
  })
}
