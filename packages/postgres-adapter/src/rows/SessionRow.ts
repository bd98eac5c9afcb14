import {
  type ActivityId,
  type AthleteId,
  type CoachId,
  type LocalDateTime,
  Session,
  type SessionId,
  SessionSummary
} from "@club/core"
import { Schema } from "effect"
import { boolOrNull, int, intOrNull, ints, textOrNull } from "../sql/columns.ts"
import { Int64 } from "../sql/Int64.ts"
import { trustedInstance } from "./trustedInstance.ts"

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

/**
 * The same row read in bulk (see sql/columns.ts). `creneau` comes from `to_char` with a fixed
 * pattern, and the id arrays from `ARRAY(SELECT ...)` of `bigint` columns.
 */
export const sessionFromRow = (row: Record<string, unknown>): Session =>
  trustedInstance(Session, {
    id: int("id", row["id"]) as SessionId,
    name: textOrNull("name", row["name"]),
    isRecurrent: boolOrNull("is_recurrent", row["isRecurrent"]),
    creneau: textOrNull("creneau", row["creneau"]) as LocalDateTime | null,
    duree: intOrNull("duree", row["duree"]),
    groupe: textOrNull("groupe", row["groupe"]),
    coachId: intOrNull("coach_id", row["coachId"]) as CoachId | null,
    athleteIds: ints("athleteIds", row["athleteIds"]) as Array<AthleteId>,
    activiteIds: ints("activiteIds", row["activiteIds"]) as Array<ActivityId>
  })

/** `SELECT id, name FROM sessions` */
export const SessionSummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(SessionSummary))

/** The same row read in bulk (see sql/columns.ts). */
export const sessionSummaryFromRow = (row: Record<string, unknown>): SessionSummary =>
  trustedInstance(SessionSummary, { id: int("id", row["id"]) as SessionId, name: textOrNull("name", row["name"]) })
