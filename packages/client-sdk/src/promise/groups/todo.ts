import type { TaskResponse } from "@club/contract/todo"
import type { NewTask, TodoClient } from "../../todo/TodoClient.ts"
import { run } from "../run.ts"

/** `todo.TodoService` over Connect; failures carry the Connect `code`. */
export interface TodoApi {
  /** `title` is required (not blank, at most 200 characters): `invalid_argument` otherwise. */
  createTask(task: NewTask): Promise<TaskResponse>
  /** Every task, oldest first. */
  listTasks(): Promise<ReadonlyArray<TaskResponse>>
  /** An unknown id answers `success: false` rather than failing. */
  deleteTask(id: string): Promise<TaskResponse>
}

export const todoOf = (todo: TodoClient): TodoApi => ({
  createTask: (task) => run(todo.createTask(task)),
  listTasks: () => run(todo.listTasks()),
  deleteTask: (id) => run(todo.deleteTask(id))
})
