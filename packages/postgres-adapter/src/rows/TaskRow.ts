import { Task } from "@club/core"
import { Schema } from "effect"

/** `RETURNING id, title, description, created_at AS "createdAt"` */
export const TaskFromRow = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  createdAt: Schema.Date
}).pipe(Schema.decodeTo(Task))
