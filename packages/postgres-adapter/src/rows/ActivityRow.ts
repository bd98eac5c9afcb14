import { Activity, ActivitySummary } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** See activityColumns. */
export const ActivityFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String),
  theme: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Int64),
  dataActivite: Schema.Array(Schema.String),
  sessionId: Schema.NullOr(Int64)
}).pipe(Schema.decodeTo(Activity))

/** `SELECT id, name FROM activities` */
export const ActivitySummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(ActivitySummary))
