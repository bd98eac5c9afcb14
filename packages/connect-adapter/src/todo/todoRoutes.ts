import type { TaskService } from "@club/core"
import type { ConnectRouter, Interceptor } from "@connectrpc/connect"
import { asCaller } from "../auth/asCaller.ts"
import type { EdgeRunner } from "../shared/EdgeRunner.ts"
import { TodoService } from "@club/contract/todo"
import { todoOperations } from "./todoOperations.ts"

/**
 * Registers TodoService: each RPC is core's TaskService run as the authenticated caller.
 * `interceptors` (authentication) apply to TodoService alone: the router's own interceptors, if
 * any, are replaced by them, and the other services on the router (health, reflection) need none.
 */
export const makeTodoRoutes =
  (run: EdgeRunner<TaskService>, interceptors: Array<Interceptor> = []) => (router: ConnectRouter): void => {
    router.service(TodoService, {
      createTask: (request, context) => run(todoOperations.createTask(request).pipe(asCaller(context)), context),
      listTasks: (request, context) => run(todoOperations.listTasks(request).pipe(asCaller(context)), context),
      deleteTask: (request, context) => run(todoOperations.deleteTask(request).pipe(asCaller(context)), context)
    }, { interceptors })
  }
