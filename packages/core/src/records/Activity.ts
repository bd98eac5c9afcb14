import { Schema } from "effect"
import { ActivityId, SessionId } from "../shared/Ids.ts"
import { Duree } from "../sessions/Session.ts"
import { BoundedArray, ShortText } from "../shared/Text.ts"

/**
 * What an activity holds by value, besides its id and its session: the activity and its input both
 * take these, and the stores keep each one in a column of its own (its name in snake case).
 */
export const ActivityValues = {
  name: Schema.NullOr(ShortText),
  theme: Schema.NullOr(ShortText),
  duree: Schema.NullOr(Duree),
  dataActivite: BoundedArray(ShortText)
}

export class Activity extends Schema.Class<Activity>("Activity")({
  id: ActivityId,
  ...ActivityValues,
  /** null once its session dropped it on update (CONTRACT.md: detached, not deleted). */
  sessionId: Schema.NullOr(SessionId)
}) {}

/** Create and update take the same fields; a supplied id is ignored by the seed, so there is none. */
export class ActivityWrite extends Schema.Class<ActivityWrite>("ActivityWrite")({
  ...ActivityValues,
  sessionId: SessionId
}) {}

/** `{id, name}` as the activities-of-a-session query returns it. */
export class ActivitySummary extends Schema.Class<ActivitySummary>("ActivitySummary")({
  id: ActivityId,
  name: Schema.NullOr(ShortText)
}) {}
