import { Task } from "@club/core"
import { recordFromRow } from "../shared/rowReader.ts"

/** `id, title, description, created_at AS "createdAt"`; `id` is a `uuid` column, so it is one. */
export const taskFromRow = recordFromRow(Task)
