import { Schema } from "effect"
import { ActivityId, SessionId } from "./Ids.ts"
import { Duree } from "./Session.ts"
import { BoundedArray, ShortText } from "./Text.ts"

export class Activity extends Schema.Class<Activity>("Activity")({
  id: ActivityId,
  name: Schema.NullOr(ShortText),
  theme: Schema.NullOr(ShortText),
  duree: Schema.NullOr(Duree),
  dataActivite: BoundedArray(ShortText),
  /** null once its session dropped it on update (CONTRACT.md: detached, not deleted). */
  sessionId: Schema.NullOr(SessionId)
}) {}

/** Create and update take the same fields; a supplied id is ignored by the seed, so there is none. */
export class ActivityInput extends Schema.Class<ActivityInput>("ActivityInput")({
  name: Schema.NullOr(ShortText),
  theme: Schema.NullOr(ShortText),
  duree: Schema.NullOr(Duree),
  dataActivite: BoundedArray(ShortText),
  sessionId: SessionId
}) {}

/** `{id, name}` as the activities-of-a-session query returns it. */
export class ActivitySummary extends Schema.Class<ActivitySummary>("ActivitySummary")({
  id: ActivityId,
  name: Schema.NullOr(ShortText)
}) {}
