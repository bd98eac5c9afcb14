import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  EntityNotFound,
  GuardianshipBounds,
  GuardianshipRepository,
  TooManyGuardianships,
  type UserId,
  UserRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newUser } from "./fixtures.ts"

const missing = 9_000_000

const athlete = (name: string) =>
  AthleteRepository.use((athletes) =>
    athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null }))
  )

const user = (name: string) => UserRepository.use((users) => users.create(newUser(name, "ATHLETE")))

export const guardianshipRepositoryContract: ContractSuite = {
  title: "GuardianshipRepository",
  tests: (it) => {
    it.effect("links a user to athletes, idempotently; both lists answer by id; unlinking ends a link", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const parent = yield* user("parent-one")
        const other = yield* user("parent-two")
        const first = yield* athlete("child one")
        const second = yield* athlete("child two")

        expect(yield* links.athletesOf(parent.id)).toEqual(Option.some([]))
        expect(yield* links.guardiansOf(first.id)).toEqual(Option.some([]))
        expect(yield* links.link(parent.id, second.id)).toBe(true)
        expect(yield* links.link(parent.id, first.id)).toBe(true)
        expect(yield* links.link(parent.id, first.id)).toBe(false)
        expect(yield* links.link(other.id, first.id)).toBe(true)

        expect(yield* links.athletesOf(parent.id)).toEqual(Option.some([first.id, second.id]))
        expect(yield* links.guardiansOf(first.id)).toEqual(Option.some([parent.id, other.id]))
        expect(yield* links.guardiansOf(second.id)).toEqual(Option.some([parent.id]))

        expect(yield* links.unlink(parent.id, first.id)).toBe(true)
        expect(yield* links.unlink(parent.id, first.id)).toBe(false)
        expect(yield* links.athletesOf(parent.id)).toEqual(Option.some([second.id]))
        expect(yield* links.guardiansOf(first.id)).toEqual(Option.some([other.id]))
      }))

    it.effect("an unknown user or athlete: not found, the user named first; the lists answer none", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const parent = yield* user("parent-unknowns")
        const child = yield* athlete("child unknowns")
        expect(yield* Effect.flip(links.link(missing as UserId, missing as AthleteId))).toEqual(
          new EntityNotFound({ entity: "User", id: missing })
        )
        expect(yield* Effect.flip(links.link(missing as UserId, child.id))).toEqual(
          new EntityNotFound({ entity: "User", id: missing })
        )
        expect(yield* Effect.flip(links.link(parent.id, missing as AthleteId))).toEqual(
          new EntityNotFound({ entity: "Athlete", id: missing })
        )
        expect(yield* links.athletesOf(missing as UserId)).toEqual(Option.none())
        expect(yield* links.guardiansOf(missing as AthleteId)).toEqual(Option.none())
        expect(yield* links.unlink(missing as UserId, child.id)).toBe(false)
        expect(yield* links.athletesOf(parent.id)).toEqual(Option.some([]))
      }))

    it.effect("a user guards at most athletesPerGuardian athletes; linking one of them again is not refused", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const parent = yield* user("parent-of-many")
        const children: Array<AthleteId> = []
        for (let n = 0; n < GuardianshipBounds.athletesPerGuardian; n++) {
          const child = yield* athlete(`child ${n}`)
          children.push(child.id)
          yield* links.link(parent.id, child.id)
        }
        const oneMore = yield* athlete("one child too many")
        expect(yield* Effect.flip(links.link(parent.id, oneMore.id))).toEqual(
          new TooManyGuardianships({ of: "user", id: parent.id, max: GuardianshipBounds.athletesPerGuardian })
        )
        expect(yield* links.link(parent.id, children[0]!)).toBe(false)
        expect(yield* links.guardiansOf(oneMore.id)).toEqual(Option.some([]))
        expect((yield* links.athletesOf(parent.id)).pipe(Option.getOrThrow)).toHaveLength(
          GuardianshipBounds.athletesPerGuardian
        )
      }))

    it.effect("an athlete has at most guardiansPerAthlete guardians", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const child = yield* athlete("child of many")
        for (let n = 0; n < GuardianshipBounds.guardiansPerAthlete; n++) {
          yield* links.link((yield* user(`carer-${n}`)).id, child.id)
        }
        const oneMore = yield* user("carer-too-many")
        expect(yield* Effect.flip(links.link(oneMore.id, child.id))).toEqual(
          new TooManyGuardianships({ of: "athlete", id: child.id, max: GuardianshipBounds.guardiansPerAthlete })
        )
        expect(yield* links.athletesOf(oneMore.id)).toEqual(Option.some([]))
      }))

    it.effect("two links at once with room for one: one is kept, the other refused", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const parent = yield* user("parent-racing")
        for (let n = 1; n < GuardianshipBounds.athletesPerGuardian; n++) {
          yield* links.link(parent.id, (yield* athlete(`racing child ${n}`)).id)
        }
        const left = yield* athlete("racing left")
        const right = yield* athlete("racing right")
        const outcomes = yield* Effect.all(
          [links.link(parent.id, left.id), links.link(parent.id, right.id)].map((one) =>
            Effect.match(one, { onFailure: (error) => error._tag, onSuccess: () => "linked" })
          ),
          { concurrency: "unbounded" }
        )
        expect([...outcomes].sort()).toEqual(["TooManyGuardianships", "linked"])
        expect((yield* links.athletesOf(parent.id)).pipe(Option.getOrThrow)).toHaveLength(
          GuardianshipBounds.athletesPerGuardian
        )
      }))

    it.effect("deleting a user or an athlete removes its links", () =>
      Effect.gen(function*() {
        const links = yield* GuardianshipRepository
        const users = yield* UserRepository
        const athletes = yield* AthleteRepository
        const parent = yield* user("parent-erased")
        const stays = yield* user("parent-stays")
        const first = yield* athlete("child erased")
        const second = yield* athlete("child stays")
        for (const guardian of [parent, stays]) {
          for (const child of [first, second]) yield* links.link(guardian.id, child.id)
        }
        yield* users.delete(parent.id)
        expect(yield* links.athletesOf(parent.id)).toEqual(Option.none())
        expect(yield* links.guardiansOf(second.id)).toEqual(Option.some([stays.id]))
        yield* athletes.delete(first.id)
        expect(yield* links.guardiansOf(first.id)).toEqual(Option.none())
        expect(yield* links.athletesOf(stays.id)).toEqual(Option.some([second.id]))
        // A new user or athlete never inherits links (the in-memory store reuses no id either).
        const next = yield* user("parent-new")
        expect(yield* links.athletesOf(next.id)).toEqual(Option.some([]))
      }))
  }
}
