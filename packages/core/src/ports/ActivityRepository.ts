import { Context, type Effect, type Option } from "effect"
import type { Activity, ActivityInput } from "../domain/Activity.ts"
import type { EntityNotFound, UnknownReferences } from "../domain/Errors.ts"
import type { ActivityId } from "../domain/Ids.ts"

export class ActivityRepository extends Context.Service<ActivityRepository, {
  create(input: ActivityInput): Effect.Effect<Activity, UnknownReferences>
  findById(id: ActivityId): Effect.Effect<Option.Option<Activity>>
  list(): Effect.Effect<ReadonlyArray<Activity>>
  listByTheme(theme: string): Effect.Effect<ReadonlyArray<Activity>>
  /** Replaces every field; the session must exist. */
  update(id: ActivityId, input: ActivityInput): Effect.Effect<Activity, EntityNotFound | UnknownReferences>
  delete(id: ActivityId): Effect.Effect<void, EntityNotFound>
}>()("@club/core/ActivityRepository") {}
