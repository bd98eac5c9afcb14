import {
  Coach,
  CoachCreate,
  CoachId,
  CoachRepository,
  CoachUpdate,
  SessionRepository,
  UserRepository
} from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { newSession, newUser } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

const newCoach = (name: string | null) => new CoachCreate({ id: null, name })

export const coachRepositoryContract: ContractSuite = {
  title: "CoachRepository",
  tests: (it) => {
    it.effect("creates, finds, lists, updates and deletes a coach", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const created = yield* coaches.create(newCoach("Marc"))
        assert.instanceOf(created, Coach)
        expect(created.name).toBe("Marc")
        expect(yield* coaches.findById(created.id)).toEqual(Option.some(created))
        expect(yield* coaches.list()).toContainEqual(created)

        const renamed = yield* coaches.update(created.id, new CoachUpdate({ name: "Marc D" }))
        expect(renamed).toEqual(new Coach({ id: created.id, name: "Marc D" }))
        expect(yield* coaches.findById(created.id)).toEqual(Option.some(renamed))

        yield* coaches.delete(created.id)
        expect(yield* coaches.findById(created.id)).toEqual(Option.none())
      }))

    it.effect("update replaces the name only when the key is present", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const coach = yield* coaches.create(newCoach("Kept"))
        expect(yield* coaches.update(coach.id, new CoachUpdate({}))).toEqual(coach)
        expect(yield* coaches.update(coach.id, new CoachUpdate({ name: null }))).toEqual(
          new Coach({ id: coach.id, name: null })
        )
        expect(Option.getOrThrow(yield* coaches.findById(coach.id)).name).toBeNull()
      }))

    it.effect("update and delete of a missing coach fail with EntityNotFound", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const missing = CoachId.make(876_543)
        expect(yield* Effect.flip(coaches.update(missing, new CoachUpdate({})))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Coach",
          id: missing
        })
        expect(yield* Effect.flip(coaches.delete(missing))).toMatchObject({ _tag: "EntityNotFound", entity: "Coach" })
      }))

    it.effect("a coach who owns sessions is not deleted", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const sessions = yield* SessionRepository
        const coach = yield* coaches.create(newCoach("Busy"))
        const first = yield* sessions.create(newSession({ name: "one", coachId: coach.id }))
        const second = yield* sessions.create(newSession({ name: "two", coachId: coach.id }))

        const refused = yield* Effect.flip(coaches.delete(coach.id))
        expect(refused).toMatchObject({ _tag: "CoachStillOwnsSessions", coachId: coach.id, sessionCount: 2 })
        expect(refused.message).toBe(`Coach ${coach.id} still owns 2 sessions`)
        expect(yield* coaches.findById(coach.id)).toEqual(Option.some(coach))
        expect(Option.isSome(yield* sessions.findById(first.id))).toBe(true)

        yield* sessions.delete(first.id)
        yield* sessions.delete(second.id)
        yield* coaches.delete(coach.id)
        expect(yield* coaches.findById(coach.id)).toEqual(Option.none())
      }))

    it.effect("delete clears the link of the coach's user", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const users = yield* UserRepository
        const coach = yield* coaches.create(newCoach("Linked"))
        const user = yield* users.create(newUser("linked-coach", "COACH", { coachId: coach.id }))
        expect(user.coachId).toBe(coach.id)

        yield* coaches.delete(coach.id)
        expect(Option.getOrThrow(yield* users.findById(user.id)).coachId).toBeNull()
      }))
  }
}
