import { Activity, ActivityId, ActivityWrite, ActivityRepository, SessionId, SessionRepository } from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { newActivity, newSession } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

export const activityRepositoryContract: ContractSuite = {
  title: "ActivityRepository",
  tests: (it) => {
    it.effect("creates, finds, lists, updates and deletes an activity", () =>
      Effect.gen(function*() {
        const activities = yield* ActivityRepository
        const sessions = yield* SessionRepository
        const session = yield* sessions.create(newSession({ name: "home" }))
        const other = yield* sessions.create(newSession({ name: "other" }))

        const created = yield* activities.create(newActivity(session.id, "sprints", "speed"))
        assert.instanceOf(created, Activity)
        expect(created).toEqual(
          new Activity({
            id: created.id,
            name: "sprints",
            theme: "speed",
            duree: 15,
            dataActivite: ["jog", "stretch"],
            sessionId: session.id
          })
        )
        expect(yield* activities.findById(created.id)).toEqual(Option.some(created))
        expect(yield* activities.list()).toContainEqual(created)
        expect(Option.getOrThrow(yield* sessions.findById(session.id)).activiteIds).toEqual([created.id])

        const replacement = new ActivityWrite({
          name: null,
          theme: null,
          duree: null,
          dataActivite: [],
          sessionId: other.id
        })
        const updated = yield* activities.update(created.id, replacement)
        expect(updated).toEqual(new Activity({ id: created.id, ...replacement }))
        expect(yield* activities.findById(created.id)).toEqual(Option.some(updated))
        expect(Option.getOrThrow(yield* sessions.findById(other.id)).activiteIds).toEqual([created.id])

        yield* activities.delete(created.id)
        expect(yield* activities.findById(created.id)).toEqual(Option.none())
        expect(yield* Effect.flip(activities.delete(created.id))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Activity"
        })
      }))

    it.effect("lists by theme with an exact match", () =>
      Effect.gen(function*() {
        const activities = yield* ActivityRepository
        const session = yield* (yield* SessionRepository).create(newSession())
        const cardio = yield* activities.create(newActivity(session.id, "a", "cardio"))
        const cardio2 = yield* activities.create(newActivity(session.id, "b", "cardio"))
        yield* activities.create(newActivity(session.id, "c", "Cardio"))
        yield* activities.create(newActivity(session.id, "d", "cardio-plus"))
        yield* activities.create(newActivity(session.id, "e", null))

        expect(yield* activities.listByTheme("cardio")).toEqual([cardio, cardio2])
        expect(yield* activities.listByTheme("nothing")).toEqual([])
      }))

    it.effect("create and update need an existing session; update needs an existing activity", () =>
      Effect.gen(function*() {
        const activities = yield* ActivityRepository
        const session = yield* (yield* SessionRepository).create(newSession())
        const activity = yield* activities.create(newActivity(session.id, "kept", "kept"))
        const before = yield* activities.list()
        const missingSession = SessionId.make(910_001)

        expect(yield* Effect.flip(activities.create(newActivity(missingSession)))).toMatchObject({
          _tag: "UnknownReferences",
          field: "sessionId",
          entity: "Session",
          ids: [missingSession]
        })
        expect(yield* Effect.flip(activities.update(activity.id, newActivity(missingSession, "changed"))))
          .toMatchObject({
            _tag: "UnknownReferences",
            field: "sessionId"
          })
        expect(yield* activities.list()).toEqual(before)

        const missing = ActivityId.make(910_002)
        expect(yield* Effect.flip(activities.update(missing, newActivity(session.id)))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Activity",
          id: missing
        })
        // The activity is looked for before its session.
        expect(yield* Effect.flip(activities.update(missing, newActivity(missingSession)))).toMatchObject({
          _tag: "EntityNotFound"
        })
      }))
  }
}
