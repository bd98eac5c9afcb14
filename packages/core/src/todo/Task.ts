import { Schema } from "effect"
import { TaskId } from "../shared/Ids.ts"
import { LongText, ShortText } from "../shared/Text.ts"

export class Task extends Schema.Class<Task>("Task")({
  id: TaskId,
  title: ShortText,
  description: LongText,
  createdAt: Schema.Date
}) {}

const NotBlank = Schema.makeFilter((s: string) => s.trim().length > 0, { expected: "a non-blank string" })

export class TaskCreate extends Schema.Class<TaskCreate>("TaskCreate")({
  title: ShortText.check(NotBlank),
  description: LongText
}) {}
