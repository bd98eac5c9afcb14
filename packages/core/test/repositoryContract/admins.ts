import { Admin, AdminCreate, AdminId, AdminRepository, AdminUpdate, UserRepository } from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { newUser } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

export const adminRepositoryContract: ContractSuite = {
  title: "AdminRepository",
  tests: (it) => {
    it.effect("creates, finds, lists, updates and deletes an admin", () =>
      Effect.gen(function*() {
        const admins = yield* AdminRepository
        const created = yield* admins.create(new AdminCreate({ id: null, name: "Root" }))
        assert.instanceOf(created, Admin)
        expect(created.name).toBe("Root")
        expect(yield* admins.findById(created.id)).toEqual(Option.some(created))
        expect(yield* admins.list()).toContainEqual(created)

        expect(yield* admins.update(created.id, new AdminUpdate({}))).toEqual(created)
        const renamed = yield* admins.update(created.id, new AdminUpdate({ name: "Root 2" }))
        expect(renamed).toEqual(new Admin({ id: created.id, name: "Root 2" }))
        expect(yield* admins.findById(created.id)).toEqual(Option.some(renamed))

        yield* admins.delete(created.id)
        expect(yield* admins.findById(created.id)).toEqual(Option.none())
      }))

    it.effect("update and delete of a missing admin fail with EntityNotFound", () =>
      Effect.gen(function*() {
        const admins = yield* AdminRepository
        const missing = AdminId.make(765_432)
        expect(yield* Effect.flip(admins.update(missing, new AdminUpdate({ name: "x" })))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Admin",
          id: missing
        })
        expect(yield* Effect.flip(admins.delete(missing))).toMatchObject({ _tag: "EntityNotFound", entity: "Admin" })
      }))

    it.effect("delete clears the link of the admin's user", () =>
      Effect.gen(function*() {
        const admins = yield* AdminRepository
        const users = yield* UserRepository
        const admin = yield* admins.create(new AdminCreate({ id: null, name: "Linked" }))
        const user = yield* users.create(newUser("linked-admin", "ADMIN", { adminId: admin.id }))
        expect(user.adminId).toBe(admin.id)

        yield* admins.delete(admin.id)
        expect(Option.getOrThrow(yield* users.findById(user.id))).toMatchObject({ adminId: null, role: "ADMIN" })
      }))
  }
}
