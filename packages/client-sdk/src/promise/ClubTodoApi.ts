import type { CallOptions } from "../shared/ClientOptions.ts"
import type { TaskId } from "../shared/Ids.ts"
import type { NewTask, TodoClient, TodoTask } from "../todo/TodoClient.ts"
import { runCall } from "./runCall.ts"

/** `todo.TodoService` as Promises; failures carry the Connect `code`. */
export interface ClubTodoApi {
  /** `title` is required (not blank, at most 200 characters): `invalid_argument` otherwise. */
  createTask(task: NewTask, options?: CallOptions): Promise<TodoTask>
  /** Every task, oldest first. */
  listTasks(options?: CallOptions): Promise<ReadonlyArray<TodoTask>>
  /** An unknown id answers `success: false` rather than failing. */
  deleteTask(id: TaskId, options?: CallOptions): Promise<TodoTask>
}

export const promiseTodo = (todo: TodoClient, defaultTimeoutMs: number | undefined): ClubTodoApi => ({
  createTask: (task, options) => runCall(todo.createTask(task), options, defaultTimeoutMs),
  listTasks: (options) => runCall(todo.listTasks(), options, defaultTimeoutMs),
  deleteTask: (id, options) => runCall(todo.deleteTask(id), options, defaultTimeoutMs)
})
