import type { TaskResponse } from "@club/contract/todo"
import { TodoService } from "@club/contract/todo"
import { createClient, type Transport } from "@connectrpc/connect"
import { Effect } from "effect"
import { TodoRpcError } from "./TodoRpcError.ts"

export interface NewTask {
  readonly title: string
  readonly description?: string | undefined
}

/** `todo.TodoService` with each call as an Effect. */
export interface TodoClient {
  readonly createTask: (task: NewTask) => Effect.Effect<TaskResponse, TodoRpcError>
  /** Every task, oldest first. */
  readonly listTasks: () => Effect.Effect<ReadonlyArray<TaskResponse>, TodoRpcError>
  /** An unknown id is not an error: it answers `success: false`. */
  readonly deleteTask: (id: string) => Effect.Effect<TaskResponse, TodoRpcError>
}

export const makeTodoClient = (transport: Transport): TodoClient => {
  const rpc = createClient(TodoService, transport)
  // The signal aborts the HTTP call when the fiber is interrupted.
  const call = <A>(run: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: TodoRpcError.from })
  return {
    createTask: (task) =>
      call((signal) => rpc.createTask({ title: task.title, description: task.description ?? "" }, { signal })),
    listTasks: () => call((signal) => rpc.listTasks({}, { signal })).pipe(Effect.map((response) => response.tasks)),
    deleteTask: (id) => call((signal) => rpc.deleteTask({ id }, { signal }))
  }
}
