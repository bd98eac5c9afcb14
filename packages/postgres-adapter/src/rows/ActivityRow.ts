import { Activity, type ActivityId, ActivitySummary, type SessionId } from "@club/core"
import { Schema } from "effect"
import { int, intOrNull, textOrNull, texts } from "../sql/columns.ts"
import { Int64 } from "../sql/Int64.ts"
import { trustedInstance } from "./trustedInstance.ts"

/** See activityColumns. */
export const ActivityFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String),
  theme: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Int64),
  dataActivite: Schema.Array(Schema.String),
  sessionId: Schema.NullOr(Int64)
}).pipe(Schema.decodeTo(Activity))

/** The same row without the Schema pass (see sql/columns.ts): an activity is read back on every write. */
export const activityFromRow = (row: Record<string, unknown>): Activity =>
  trustedInstance(Activity, {
    id: int("id", row["id"]) as ActivityId,
    name: textOrNull("name", row["name"]),
    theme: textOrNull("theme", row["theme"]),
    duree: intOrNull("duree", row["duree"]),
    dataActivite: texts("data_activite", row["dataActivite"]),
    sessionId: intOrNull("session_id", row["sessionId"]) as SessionId | null
  })

/** `SELECT id, name FROM activities` */
export const ActivitySummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(ActivitySummary))
