import type { TaskService } from "@club/core"
import type { ConnectRouter } from "@connectrpc/connect"
import { asCaller } from "./asCaller.ts"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { TodoService } from "@club/contract/todo"
import { todoOperations } from "./todoOperations.ts"

/** Registers TodoService: each RPC is core's TaskService run as the authenticated caller. */
export const makeTodoRoutes = (run: EdgeRunner<TaskService>) => (router: ConnectRouter): void => {
  router.service(TodoService, {
    createTask: (request, context) => run(todoOperations.createTask(request).pipe(asCaller(context)), context),
    listTasks: (request, context) => run(todoOperations.listTasks(request).pipe(asCaller(context)), context),
    deleteTask: (request, context) => run(todoOperations.deleteTask(request).pipe(asCaller(context)), context)
  })
}
