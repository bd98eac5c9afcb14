import { Context, type Effect, type Option } from "effect"
import type { Activity, ActivityWrite } from "./Activity.ts"
import type { EntityNotFound, UnknownReferences } from "../shared/Errors.ts"
import type { ActivityId } from "../shared/Ids.ts"

/**
 * Activities. Each belongs to at most one session (`sessionId`): it is in a session's
 * `activiteIds` exactly when its `sessionId` names that session. Ids are always generated (the
 * seed ignores a supplied one), never handed out twice. Lists are in id order.
 */
export class ActivityRepository extends Context.Service<ActivityRepository, {
  /** The session must exist: otherwise `UnknownReferences` (field `sessionId`, entity `Session`), nothing written. */
  create(input: ActivityWrite): Effect.Effect<Activity, UnknownReferences>
  findById(id: ActivityId): Effect.Effect<Option.Option<Activity>>
  list(): Effect.Effect<ReadonlyArray<Activity>>
  /** The activities whose theme is exactly `theme` (case included); a null theme matches none. */
  listByTheme(theme: string): Effect.Effect<ReadonlyArray<Activity>>
  /**
   * Replaces every field, and so moves the activity to the session named. A missing activity:
   * `EntityNotFound`; then a missing session: `UnknownReferences` as on create, nothing changed.
   */
  update(id: ActivityId, input: ActivityWrite): Effect.Effect<Activity, EntityNotFound | UnknownReferences>
  delete(id: ActivityId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/ActivityRepository") {}
