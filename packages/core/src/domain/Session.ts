import { Schema } from "effect"
import { ActivityId, AthleteId, CoachId, SessionId } from "./Ids.ts"
import { LocalDateTime } from "./LocalDateTime.ts"
import { SuppliedSessionId } from "./SuppliedId.ts"
import { BoundedArray, ShortText } from "./Text.ts"

/** A duration (unit not shown by the seed): a non-negative 64-bit integer within JavaScript's safe range. */
export const Duree = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export class Session extends Schema.Class<Session>("Session")({
  id: SessionId,
  name: Schema.NullOr(ShortText),
  isRecurrent: Schema.NullOr(Schema.Boolean),
  creneau: Schema.NullOr(LocalDateTime),
  duree: Schema.NullOr(Duree),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  athleteIds: Schema.Array(AthleteId),
  activiteIds: Schema.Array(ActivityId)
}) {}

export class SessionCreate extends Schema.Class<SessionCreate>("SessionCreate")({
  id: Schema.NullOr(SuppliedSessionId),
  name: Schema.NullOr(ShortText),
  isRecurrent: Schema.NullOr(Schema.Boolean),
  creneau: Schema.NullOr(LocalDateTime),
  duree: Schema.NullOr(Duree),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  athleteIds: BoundedArray(AthleteId),
  activiteIds: BoundedArray(ActivityId)
}) {}

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
export type SessionFilter = {
  readonly [K in Exclude<keyof typeof Session.fields, "athleteIds" | "activiteIds">]?: Session[K]
}

/** `{id, name}` as the athlete-session queries return it. */
export class SessionSummary extends Schema.Class<SessionSummary>("SessionSummary")({
  id: SessionId,
  name: Schema.NullOr(ShortText)
}) {}
