import { TodoService } from "@club/contract/todo"
import { createClient, type Transport } from "@connectrpc/connect"
import { Effect } from "effect"
import { CallSettings } from "../shared/CallSettings.ts"
import type { TaskId } from "../shared/Ids.ts"
import { delayBeforeRetry, type RetryPolicy } from "../shared/retryDelay.ts"
import { TodoRpcError } from "./TodoRpcError.ts"

export interface NewTask {
  readonly title: string
  readonly description?: string | undefined
}

/** A task as TodoService answers it; `success` says whether the operation did something. */
export interface TodoTask {
  readonly id: TaskId
  readonly title: string
  readonly description: string
  readonly success: boolean
}

/** `todo.TodoService` with each call as an Effect. */
export interface TodoClient {
  /** `title` is required (not blank, at most 200 characters): `invalid_argument` otherwise. Never retried. */
  readonly createTask: (task: NewTask) => Effect.Effect<TodoTask, TodoRpcError>
  /** Every task, oldest first. */
  readonly listTasks: () => Effect.Effect<ReadonlyArray<TodoTask>, TodoRpcError>
  /** An unknown id is not an error: it answers `success: false`, so a retry is harmless. */
  readonly deleteTask: (id: TaskId) => Effect.Effect<TodoTask, TodoRpcError>
}

// The server answers ids it made, or the caller's own id back (a delete): both are task ids.
const asTask = (
  response: { readonly id: string; readonly title: string; readonly description: string; readonly success: boolean }
): TodoTask => ({
  id: response.id as TaskId,
  title: response.title,
  description: response.description,
  success: response.success
})

export const makeTodoClient = (transport: Transport, policy: RetryPolicy): TodoClient => {
  const rpc = createClient(TodoService, transport)
  /**
   * One call, with the call's headers, its request id kept for its error, and the fiber's
   * interruption as its signal; a repeatable one is sent again while the server is `unavailable`.
   */
  const call = <A>(
    repeatable: boolean,
    run: (
      options: { signal: AbortSignal; headers: Record<string, string>; onHeader: (headers: Headers) => void }
    ) => Promise<A>
  ) =>
    CallSettings.use((settings) => {
      const attempt = (n: number): Effect.Effect<A, TodoRpcError> =>
        Effect.tryPromise({
          try: (signal) =>
            run({
              signal,
              headers: { ...settings.headers },
              onHeader: (headers) => (settings.seen.requestId = headers.get("x-request-id") ?? undefined)
            }),
          catch: TodoRpcError.from
        }).pipe(
          Effect.catch((error) => {
            const delay = repeatable && error.code === "unavailable"
              ? delayBeforeRetry(policy, n, undefined)
              : undefined
            return delay === undefined ? Effect.fail(error) : Effect.andThen(Effect.sleep(delay), attempt(n + 1))
          })
        )
      return attempt(1)
    })
  return {
    createTask: (task) =>
      call(false, (options) => rpc.createTask({ title: task.title, description: task.description ?? "" }, options))
        .pipe(Effect.map(asTask)),
    listTasks: () =>
      call(true, (options) => rpc.listTasks({}, options)).pipe(Effect.map((response) => response.tasks.map(asTask))),
    deleteTask: (id) => call(true, (options) => rpc.deleteTask({ id }, options)).pipe(Effect.map(asTask))
  }
}
