import { Schema } from "effect"
import { ActivityId, AthleteId, CoachId, SessionId } from "../shared/Ids.ts"
import { LocalDateTime } from "../shared/LocalDateTime.ts"
import { SuppliedSessionId } from "../shared/SuppliedId.ts"
import { BoundedArray, ShortText } from "../shared/Text.ts"

/** A duration (unit not shown by the seed): a non-negative 64-bit integer within JavaScript's safe range. */
export const Duree = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * What a session holds by value, besides its id and its lists: the session and its create input
 * both take these, and the stores keep each one in a column of its own (its name in snake case).
 */
export const SessionValues = {
  name: Schema.NullOr(ShortText),
  isRecurrent: Schema.NullOr(Schema.Boolean),
  creneau: Schema.NullOr(LocalDateTime),
  duree: Schema.NullOr(Duree),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId)
}

export class Session extends Schema.Class<Session>("Session")({
  id: SessionId,
  ...SessionValues,
  athleteIds: Schema.Array(AthleteId),
  activiteIds: Schema.Array(ActivityId)
}) {}

export class SessionCreate extends Schema.Class<SessionCreate>("SessionCreate")({
  id: Schema.NullOr(SuppliedSessionId),
  ...SessionValues,
  athleteIds: BoundedArray(AthleteId),
  activiteIds: BoundedArray(ActivityId)
}) {}

/** A session's values as `SessionValues` declares them. */
export type SessionValues = Schema.Struct<typeof SessionValues>["Type"]

/** The values of a session or of its create input, without its id and lists. */
export const sessionValuesOf = (session: SessionValues): SessionValues => {
  const values: Record<string, unknown> = {}
  for (const field of sessionValueFields) values[field] = session[field]
  return values as SessionValues
}
const sessionValueFields = Object.keys(SessionValues) as ReadonlyArray<keyof SessionValues>

/** The seed applies only these three, each only when present. */
export class SessionUpdate extends Schema.Class<SessionUpdate>("SessionUpdate")({
  duree: Schema.optionalKey(Schema.NullOr(Duree)),
  athleteIds: Schema.optionalKey(BoundedArray(AthleteId)),
  activiteIds: Schema.optionalKey(BoundedArray(ActivityId))
}) {}

/**
 * Sessions whose fields hold these values, each compared as a whole (null matches a session without
 * one): any field a session holds by value, none of its lists. `{}` matches every session.
 */
export type SessionFilter = Partial<Pick<Session, "id" | keyof SessionValues>>

/** `{id, name}` as the athlete-session queries return it. */
export class SessionSummary extends Schema.Class<SessionSummary>("SessionSummary")({
  id: SessionId,
  name: Schema.NullOr(ShortText)
}) {}
