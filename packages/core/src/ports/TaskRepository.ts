import { Context, type Effect, type Option } from "effect"
import type { TaskId } from "../domain/Ids.ts"
import type { Task, TaskCreate } from "../domain/Task.ts"

export class TaskRepository extends Context.Service<TaskRepository, {
  /** The store assigns the UUID and the creation time. */
  create(input: TaskCreate): Effect.Effect<Task>
  /** Oldest first. */
  list(): Effect.Effect<ReadonlyArray<Task>>
  /** The deleted task, or none when no task had that id. */
  delete(id: TaskId): Effect.Effect<Option.Option<Task>>
}>()("@club/core/TaskRepository") {}
