import { Task, type TaskId } from "@club/core"
import { Schema } from "effect"
import { date, text } from "../sql/columns.ts"
import { trustedInstance } from "./trustedInstance.ts"

/** `RETURNING id, title, description, created_at AS "createdAt"` */
export const TaskFromRow = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  createdAt: Schema.Date
}).pipe(Schema.decodeTo(Task))

/** The same row read in bulk (see sql/columns.ts): `id` is a `uuid` column, so it is one. */
export const taskFromRow = (row: Record<string, unknown>): Task =>
  trustedInstance(Task, {
    id: text("id", row["id"]) as TaskId,
    title: text("title", row["title"]),
    description: text("description", row["description"]),
    createdAt: date("created_at", row["createdAt"])
  })
