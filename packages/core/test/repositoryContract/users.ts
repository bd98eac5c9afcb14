import {
  AdminCreate,
  AdminRepository,
  AthleteCreate,
  AthleteRepository,
  CoachCreate,
  CoachId,
  CoachRepository,
  User,
  UserId,
  UserRepository
} from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { newUser } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

export const userRepositoryContract: ContractSuite = {
  title: "UserRepository",
  tests: (it) => {
    it.effect("link create makes a record of the role's kind named after the user", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const coach = yield* users.create(newUser("new-coach", "COACH"))
        const athlete = yield* users.create(newUser("new-athlete", "ATHLETE"))
        const admin = yield* users.create(newUser("new-admin", "ADMIN"))
        assert.instanceOf(coach, User)
        expect(coach).toMatchObject({
          name: "new-coach",
          email: "new-coach@club.test",
          role: "COACH",
          athleteId: null,
          adminId: null
        })
        expect(athlete).toMatchObject({ role: "ATHLETE", coachId: null, adminId: null })
        expect(admin).toMatchObject({ role: "ADMIN", coachId: null, athleteId: null })

        expect(Option.getOrThrow(yield* (yield* CoachRepository).findById(coach.coachId!)).name).toBe("new-coach")
        expect(Option.getOrThrow(yield* (yield* AthleteRepository).findById(athlete.athleteId!)).name).toBe(
          "new-athlete"
        )
        expect(Option.getOrThrow(yield* (yield* AdminRepository).findById(admin.adminId!)).name).toBe("new-admin")

        expect(yield* users.findById(coach.id)).toEqual(Option.some(coach))
        const listed = yield* users.list()
        expect(listed).toEqual(expect.arrayContaining([coach, athlete, admin]))
        expect(listed.map((user) => user.id)).toEqual(listed.map((user) => user.id).sort((a, b) => a - b))
      }))

    it.effect("links to an existing coach, athlete or admin", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "c" }))
        const athlete = yield* (yield* AthleteRepository).create(
          new AthleteCreate({ id: null, name: "a", categorie: null, niveau: null })
        )
        const admin = yield* (yield* AdminRepository).create(new AdminCreate({ id: null, name: "ad" }))

        expect(yield* users.create(newUser("to-coach", "COACH", { coachId: coach.id }))).toMatchObject({
          coachId: coach.id
        })
        expect(yield* users.create(newUser("to-athlete", "ATHLETE", { athleteId: athlete.id }))).toMatchObject({
          athleteId: athlete.id
        })
        expect(yield* users.create(newUser("to-admin", "ADMIN", { adminId: admin.id }))).toMatchObject({
          adminId: admin.id
        })
      }))

    it.effect("refuses an unknown link, a record linked to another user and a taken name, writing nothing", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const coaches = yield* CoachRepository
        const coach = yield* coaches.create(new CoachCreate({ id: null, name: "taken" }))
        yield* users.create(newUser("first-owner", "COACH", { coachId: coach.id }))
        const usersBefore = yield* users.list()
        const coachesBefore = yield* coaches.list()

        const unknown = CoachId.make(920_001)
        expect(yield* Effect.flip(users.create(newUser("nobody", "COACH", { coachId: unknown })))).toMatchObject({
          _tag: "UnknownReferences",
          field: "coachId",
          entity: "Coach",
          ids: [unknown]
        })
        expect(yield* Effect.flip(users.create(newUser("second-owner", "COACH", { coachId: coach.id })))).toMatchObject(
          {
            _tag: "RecordAlreadyLinked",
            entity: "Coach",
            id: coach.id
          }
        )
        expect(yield* Effect.flip(users.create(newUser("first-owner", "COACH")))).toMatchObject({
          _tag: "UserNameTaken",
          name: "first-owner"
        })
        // In this order: the record must exist, then the name must be free, then the record.
        expect(yield* Effect.flip(users.create(newUser("first-owner", "COACH", { coachId: unknown })))).toMatchObject({
          _tag: "UnknownReferences"
        })
        expect(yield* Effect.flip(users.create(newUser("first-owner", "COACH", { coachId: coach.id })))).toMatchObject({
          _tag: "UserNameTaken"
        })

        expect(yield* users.list()).toEqual(usersBefore)
        // The coach that link "create" made for the refused user was rolled back with it.
        expect(yield* coaches.list()).toEqual(coachesBefore)
      }))

    it.effect("reads credentials by name and by id, the hash redacted", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* users.create(newUser("with-credentials", "ATHLETE"))
        const byName = Option.getOrThrow(yield* users.findCredentialsByName("with-credentials"))
        expect(byName.user).toEqual(user)
        expect(Redacted.value(byName.passwordHash)).toBe("hash-of-with-credentials")
        expect(String(byName.passwordHash)).not.toContain("hash-of")
        expect(byName.tokensValidAfter).toBe(0)

        const byId = Option.getOrThrow(yield* users.findCredentialsById(user.id))
        expect(byId.user).toEqual(user)
        expect(Redacted.value(byId.passwordHash)).toBe("hash-of-with-credentials")

        expect(yield* users.findCredentialsByName("no-such-user")).toEqual(Option.none())
        // Names compare exactly.
        expect(yield* users.findCredentialsByName("With-Credentials")).toEqual(Option.none())
        expect(yield* users.findCredentialsById(UserId.make(920_002))).toEqual(Option.none())
      }))

    it.effect("update applies only the changes given", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* users.create(newUser("changing", "ATHLETE"))

        expect(yield* users.update(user.id, {})).toEqual(user)
        expect(yield* users.update(user.id, { name: user.name })).toEqual(user)
        const renamed = yield* users.update(user.id, { name: "changed", email: null })
        expect(renamed).toEqual(new User({ ...user, name: "changed", email: null }))

        const promoted = yield* users.update(user.id, {
          role: "COACH",
          link: "create",
          passwordHash: Redacted.make("new-hash"),
          revokeTokensIssuedBefore: 1_790_000_000
        })
        expect(promoted).toMatchObject({ name: "changed", role: "COACH", athleteId: null, adminId: null })
        expect(Option.getOrThrow(yield* (yield* CoachRepository).findById(promoted.coachId!)).name).toBe("changed")
        const credentials = Option.getOrThrow(yield* users.findCredentialsById(user.id))
        expect(Redacted.value(credentials.passwordHash)).toBe("new-hash")
        expect(credentials.tokensValidAfter).toBe(1_790_000_000)

        // Revocation only moves forward.
        yield* users.update(user.id, { revokeTokensIssuedBefore: 1_700_000_000 })
        expect(Option.getOrThrow(yield* users.findCredentialsById(user.id)).tokensValidAfter).toBe(1_790_000_000)
      }))

    it.effect("update refuses a taken name and a missing user", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const occupant = yield* users.create(newUser("occupied", "ADMIN"))
        const user = yield* users.create(newUser("mover", "ADMIN"))
        expect(yield* Effect.flip(users.update(user.id, { name: "occupied", email: "x@y.z" }))).toMatchObject({
          _tag: "UserNameTaken",
          name: "occupied"
        })
        expect(yield* Effect.flip(users.update(user.id, { link: { adminId: occupant.adminId! } }))).toMatchObject({
          _tag: "RecordAlreadyLinked",
          entity: "Admin",
          id: occupant.adminId
        })
        expect(yield* users.findById(user.id)).toEqual(Option.some(user))

        const missing = UserId.make(920_003)
        expect(yield* Effect.flip(users.update(missing, { name: "x" }))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "User",
          id: missing
        })
      }))

    it.effect("deletes a user and counts users by role", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const before = yield* users.countByRole("COACH")
        const user = yield* users.create(newUser("counted", "COACH"))
        expect(yield* users.countByRole("COACH")).toBe(before + 1)

        yield* users.delete(user.id)
        expect(yield* users.findById(user.id)).toEqual(Option.none())
        expect(yield* users.countByRole("COACH")).toBe(before)
        // The record the user was linked to stays.
        expect(Option.isSome(yield* (yield* CoachRepository).findById(user.coachId!))).toBe(true)
        expect(yield* Effect.flip(users.delete(user.id))).toMatchObject({ _tag: "EntityNotFound", entity: "User" })
      }))
  }
}
