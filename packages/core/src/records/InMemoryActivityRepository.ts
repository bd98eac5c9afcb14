import { Effect, Layer, Option } from "effect"
import { Activity, type ActivityWrite } from "./Activity.ts"
import { EntityNotFound } from "../shared/Errors.ts"
import type { ActivityId } from "../shared/Ids.ts"
import { ActivityRepository } from "./ActivityRepository.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import { activityEvent } from "../webhooks/domainEvents.ts"

export const InMemoryActivityRepository = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const { activities, sessions } = yield* InMemoryStore
    const outbox = yield* InMemoryOutbox

    const activityOf = (id: ActivityId, input: ActivityWrite) => new Activity({ id, ...input })

    const create = traced("ActivityRepository.create")(function*(input: ActivityWrite) {
      const unknown = sessions.unknownReferences("sessionId", [input.sessionId])
      if (unknown !== undefined) return yield* unknown
      // Activities never take a supplied id.
      const created = activities.insert(activityOf(activities.newId(null) as ActivityId, input))
      yield* appendEvents(outbox, [activityEvent("activityCreated", created)])
      return created
    })

    const findById = traced("ActivityRepository.findById")(function*(id: ActivityId) {
      return Option.fromNullishOr(activities.get(id))
    })

    const list = traced("ActivityRepository.list")(function*() {
      return activities.all()
    })

    const listByTheme = traced("ActivityRepository.listByTheme")(function*(theme: string) {
      return activities.all().filter((activity) => activity.theme === theme)
    })

    const update = traced("ActivityRepository.update")(function*(id: ActivityId, input: ActivityWrite) {
      if (!activities.has(id)) return yield* new EntityNotFound({ entity: "Activity", id })
      const unknown = sessions.unknownReferences("sessionId", [input.sessionId])
      if (unknown !== undefined) return yield* unknown
      const updated = activities.replace(activityOf(id, input))
      // Every accepted edit is told, even one that leaves the values as they were (decision 0283).
      yield* appendEvents(outbox, [activityEvent("activityChanged", updated)])
      return updated
    })

    const remove = traced("ActivityRepository.delete")(function*(id: ActivityId) {
      const stored = activities.get(id)
      if (stored === undefined) return yield* new EntityNotFound({ entity: "Activity", id })
      activities.delete(id)
      yield* appendEvents(outbox, [activityEvent("activityDeleted", stored)])
    })

    return ActivityRepository.of({ create, findById, list, listByTheme, update, delete: remove })
  })
)
