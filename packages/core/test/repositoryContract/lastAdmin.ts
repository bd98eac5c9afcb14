import { LastAdminUser, type User, UserRepository } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { newUser } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

const adminUsers = Effect.flatMap(
  Effect.service(UserRepository),
  (users) => Effect.map(users.list(), (all) => all.filter((user) => user.role === "ADMIN"))
)

/** The one ADMIN user the tests of the block leave behind them. */
const onlyAdmin = Effect.map(adminUsers, (admins) => {
  expect(admins).toHaveLength(1)
  return admins[0]!
})

export const lastAdminContract: ContractSuite = {
  title: "The last ADMIN user (UserRepository)",
  tests: (it) => {
    it.effect("cannot be demoted nor deleted: LastAdminUser, and it stays as it was; other changes are made", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const admin = yield* users.create(newUser("sole-admin", "ADMIN"))

        const demoted = yield* Effect.flip(
          users.update(admin.id, { role: "COACH", link: "create", revokeTokensIssuedBefore: 1 })
        )
        expect(demoted).toBeInstanceOf(LastAdminUser)
        expect(demoted).toMatchObject({ userId: admin.id })
        expect(yield* Effect.flip(users.delete(admin.id))).toEqual(new LastAdminUser({ userId: admin.id }))
        expect(yield* users.findById(admin.id)).toEqual(Option.some(admin))

        expect(yield* users.update(admin.id, { name: "sole-admin-renamed" })).toMatchObject({
          role: "ADMIN",
          name: "sole-admin-renamed"
        })
      }))

    it.effect("with two, either can be demoted or deleted, and then the other is the last", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const first = yield* onlyAdmin
        const second = yield* users.create(newUser("second-admin", "ADMIN"))
        expect(yield* users.update(second.id, { role: "ATHLETE", link: "create" })).toMatchObject({ role: "ATHLETE" })
        expect(yield* Effect.flip(users.update(first.id, { role: "ATHLETE", link: "create" }))).toMatchObject({
          _tag: "LastAdminUser",
          userId: first.id
        })

        const third = yield* users.create(newUser("third-admin", "ADMIN"))
        yield* users.delete(third.id)
        expect(yield* Effect.flip(users.delete(first.id))).toMatchObject({ _tag: "LastAdminUser", userId: first.id })
        expect(yield* onlyAdmin).toEqual(first)
      }))

    it.effect("two ADMIN users demoting or deleting each other at once: exactly one succeeds", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        for (let round = 0; round < 10; round++) {
          const survivor = yield* onlyAdmin
          const other = yield* users.create(newUser(`racing-admin-${round}`, "ADMIN"))
          const pair: ReadonlyArray<User> = [survivor, other]
          const remove = (target: User) =>
            round % 2 === 0
              ? Effect.asVoid(users.update(target.id, { role: "COACH", link: "create" }))
              : users.delete(target.id)
          const outcomes = yield* Effect.all(pair.map((target) => Effect.result(remove(target))), {
            concurrency: "unbounded"
          })
          expect(outcomes.filter(Result.isSuccess), `round ${round}`).toHaveLength(1)
          const [refused] = outcomes.filter(Result.isFailure)
          expect(refused!.failure).toBeInstanceOf(LastAdminUser)
          yield* onlyAdmin
        }
      }))
  }
}
