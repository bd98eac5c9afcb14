import { Session, SessionSummary } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** A session with its athlete and activity ids aggregated in the same row (see sessionColumns). */
export const SessionFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String),
  isRecurrent: Schema.NullOr(Schema.Boolean),
  creneau: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Int64),
  groupe: Schema.NullOr(Schema.String),
  coachId: Schema.NullOr(Int64),
  athleteIds: Schema.Array(Int64),
  activiteIds: Schema.Array(Int64)
}).pipe(Schema.decodeTo(Session))

/** `SELECT id, name FROM sessions` */
export const SessionSummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(SessionSummary))
