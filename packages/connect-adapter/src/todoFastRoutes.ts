import { type AuthService, CurrentActor, type DomainError, type TaskService } from "@club/core"
import { Effect } from "effect"
import { authenticateBearer } from "./authenticateBearer.ts"
import { TodoService } from "@club/contract/todo"
import { todoOperations } from "./todoOperations.ts"
import type { FastUnaryRoute } from "./FastCall.ts"

/**
 * TodoService's RPCs for the unary fast path: authentication as the interceptor does it, then the
 * same operation as connect-node's route, in one fiber. The request is parsed before either runs,
 * as connect-node parses it before its interceptors.
 */
export const todoFastRoutes: ReadonlyArray<FastUnaryRoute<TaskService | AuthService>> = (
  ["createTask", "listTasks", "deleteTask"] as const
).map((name) => ({
  method: TodoService.method[name],
  invoke: (request: never, authorization: string | null) =>
    Effect.flatMap(authenticateBearer(authorization), (actor) => {
      const operation: (request: never) => Effect.Effect<object, DomainError, TaskService | CurrentActor> =
        todoOperations[name]
      return Effect.provideService(operation(request), CurrentActor, actor)
    })
}))
