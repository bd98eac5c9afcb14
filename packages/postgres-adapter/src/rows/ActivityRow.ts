import { Activity, ActivitySummary, ActivityValues } from "@club/core"
import { Schema } from "effect"
import { int, intOrNull } from "../sql/columns.ts"
import { Int64 } from "../sql/Int64.ts"
import { trustedInstance } from "./trustedInstance.ts"
import { valueReaders } from "./valueReader.ts"

const readers = valueReaders(ActivityValues)

/**
 * An activity, read in bulk (see sql/columns.ts) as every activity is read: each of core's
 * `ActivityValues` under its field's name, then its session.
 */
export const activityFromRow = (row: Record<string, unknown>): Activity => {
  const fields: Record<string, unknown> = { id: int("id", row["id"]) }
  for (const [field, read] of readers) fields[field] = read(field, row[field])
  fields["sessionId"] = intOrNull("sessionId", row["sessionId"])
  return trustedInstance(Activity, fields as ConstructorParameters<typeof Activity>[0])
}

/** `SELECT id, name FROM activities` */
export const ActivitySummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(ActivitySummary))
