import type { Task } from "@club/core"
import type { MessageInitShape } from "@bufbuild/protobuf"
import type { TaskResponseSchema } from "@club/contract/todo"

export type TaskResponseInit = MessageInitShape<typeof TaskResponseSchema>

/** A stored (or just deleted) task: the operation succeeded. */
export const taskResponse = (task: Task): TaskResponseInit => ({
  id: task.id,
  title: task.title,
  description: task.description,
  success: true
})

/** DeleteTask of an id that matches no task: not an error, so that a retry is harmless. */
export const nothingDeleted = (id: string): TaskResponseInit => ({ id, success: false })
