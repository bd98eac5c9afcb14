import { Context, type Effect, type Option } from "effect"
import type { TaskId } from "../shared/Ids.ts"
import type { Task, TaskCreate } from "./Task.ts"

export class TaskRepository extends Context.Service<TaskRepository, {
  /** The store assigns the id (a random UUID, distinct from every other task's) and the creation time (now). */
  create(input: TaskCreate): Effect.Effect<Task>
  /** Oldest first: in the order of their creates, also when two share a creation time. */
  list(): Effect.Effect<ReadonlyArray<Task>>
  /** The deleted task, or none when no task had that id (so deleting twice is harmless). */
  delete(id: TaskId): Effect.Effect<Option.Option<Task>>
}>()("@club/core/TaskRepository") {}
