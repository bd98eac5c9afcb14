import {
  Athlete,
  AthleteCreate,
  AthleteId,
  AthleteRepository,
  AthleteUpdate,
  SessionId,
  SessionRepository,
  UserRepository
} from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { newSession, newUser } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

const newAthlete = (name: string, id: number | null = null) =>
  new AthleteCreate({ id: id === null ? null : AthleteId.make(id), name, categorie: "U18", niveau: "regional" })

export const athleteRepositoryContract: ContractSuite = {
  title: "AthleteRepository",
  tests: (it) => {
    it.effect("creates, finds, lists, updates and deletes an athlete", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const created = yield* athletes.create(newAthlete("Ana"))
        assert.instanceOf(created, Athlete)
        expect(created).toMatchObject({ name: "Ana", categorie: "U18", niveau: "regional" })

        expect(yield* athletes.findById(created.id)).toEqual(Option.some(created))
        expect((yield* athletes.list()).map((athlete) => athlete.id)).toContain(created.id)

        const updated = yield* athletes.update(
          created.id,
          new AthleteUpdate({ name: "Ana B", categorie: null, niveau: "national", sessionIds: null })
        )
        expect(updated).toEqual(new Athlete({ id: created.id, name: "Ana B", categorie: null, niveau: "national" }))
        expect(yield* athletes.findById(created.id)).toEqual(Option.some(updated))

        yield* athletes.delete(created.id)
        expect(yield* athletes.findById(created.id)).toEqual(Option.none())
      }))

    it.effect("lists athletes in id order", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const first = yield* athletes.create(newAthlete("First"))
        const second = yield* athletes.create(newAthlete("Second"))
        const ids = (yield* athletes.list()).map((athlete) => athlete.id)
        expect(ids).toEqual([...ids].sort((a, b) => a - b))
        expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id))
      }))

    it.effect("update and delete of a missing athlete fail with EntityNotFound", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const missing = AthleteId.make(987_654)
        const update = new AthleteUpdate({ name: "x", categorie: null, niveau: null, sessionIds: null })
        expect(yield* Effect.flip(athletes.update(missing, update))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Athlete",
          id: missing
        })
        // The athlete is looked for before the sessions it names.
        const withUnknownSessions = new AthleteUpdate({
          name: "x",
          categorie: null,
          niveau: null,
          sessionIds: [SessionId.make(987_655)]
        })
        expect(yield* Effect.flip(athletes.update(missing, withUnknownSessions))).toMatchObject({
          _tag: "EntityNotFound"
        })
        expect(yield* Effect.flip(athletes.delete(missing))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Athlete"
        })
      }))

    it.effect("update with sessionIds replaces the athlete's memberships", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const sessions = yield* SessionRepository
        const athlete = yield* athletes.create(newAthlete("Member"))
        const morning = yield* sessions.create(newSession({ name: "morning", athleteIds: [athlete.id] }))
        const evening = yield* sessions.create(newSession({ name: "evening" }))

        yield* athletes.update(
          athlete.id,
          new AthleteUpdate({ name: "Member", categorie: null, niveau: null, sessionIds: [evening.id, evening.id] })
        )
        expect((yield* sessions.summariesOfAthlete(athlete.id, {})).map((s) => s.id)).toEqual([evening.id])
        expect(Option.getOrThrow(yield* sessions.findById(morning.id)).athleteIds).toEqual([])

        yield* athletes.update(
          athlete.id,
          new AthleteUpdate({ name: "Member", categorie: null, niveau: null, sessionIds: [] })
        )
        expect(yield* sessions.summariesOfAthlete(athlete.id, {})).toEqual([])
      }))

    it.effect("update with an unknown session id changes nothing", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const sessions = yield* SessionRepository
        const athlete = yield* athletes.create(newAthlete("Careful"))
        const session = yield* sessions.create(newSession({ name: "kept", athleteIds: [athlete.id] }))
        const unknown = [SessionId.make(999_001), SessionId.make(999_002)]

        const error = yield* Effect.flip(athletes.update(
          athlete.id,
          new AthleteUpdate({
            name: "Changed",
            categorie: "changed",
            niveau: null,
            sessionIds: [session.id, ...unknown]
          })
        ))
        expect(error).toMatchObject({ _tag: "UnknownReferences", field: "sessionIds", entity: "Session", ids: unknown })

        expect(yield* athletes.findById(athlete.id)).toEqual(Option.some(athlete))
        expect((yield* sessions.summariesOfAthlete(athlete.id, {})).map((s) => s.id)).toEqual([session.id])
      }))

    it.effect("delete removes the athlete's memberships and clears the user link", () =>
      Effect.gen(function*() {
        const athletes = yield* AthleteRepository
        const sessions = yield* SessionRepository
        const users = yield* UserRepository
        const athlete = yield* athletes.create(newAthlete("Leaving"))
        const stays = yield* athletes.create(newAthlete("Staying"))
        const session = yield* sessions.create(newSession({ name: "group", athleteIds: [athlete.id, stays.id] }))
        const user = yield* users.create(newUser("leaving", "ATHLETE", { athleteId: athlete.id }))
        expect(user.athleteId).toBe(athlete.id)

        yield* athletes.delete(athlete.id)

        expect(Option.getOrThrow(yield* sessions.findById(session.id)).athleteIds).toEqual([stays.id])
        expect(Option.getOrThrow(yield* users.findById(user.id))).toMatchObject({ athleteId: null, role: "ATHLETE" })
      }))
  }
}
