import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import {
  type NewUser,
  PasswordHasher,
  type Role,
  User,
  UserId,
  UserNameTaken,
  UserRepository,
  UserService
} from "../src/index.ts"

/** The users a start-up finds, as the repository shows them; `create` adds one, or finds its name taken by `racer`. */
const usersLayer = (existing: ReadonlyArray<{ name: string; role: Role }>, racer?: { name: string; role: Role }) => {
  const users = existing.map(({ name, role }, index) =>
    new User({ id: UserId.make(index + 1), name, email: null, role, coachId: null, athleteId: null, adminId: null })
  )
  const created: Array<NewUser> = []
  const repository = UserRepository.of({
    countByRole: (role) => Effect.succeed(users.filter((user) => user.role === role).length),
    findCredentialsByName: (name) =>
      Effect.succeed(
        Option.map(Option.fromNullishOr(users.find((user) => user.name === name)), (user) => ({
          user,
          passwordHash: Redacted.make("hash"),
          tokensValidAfter: 0
        }))
      ),
    create: (input) =>
      Effect.suspend(() => {
        if (racer !== undefined) {
          users.push(
            new User({
              id: UserId.make(99),
              name: racer.name,
              email: null,
              role: racer.role,
              coachId: null,
              athleteId: null,
              adminId: null
            })
          )
          return Effect.fail(new UserNameTaken({ name: input.name }))
        }
        created.push(input)
        return Effect.succeed(users[0]!)
      }),
    findById: () => Effect.die("not used"),
    findCredentialsById: () => Effect.die("not used"),
    list: () => Effect.die("not used"),
    update: () => Effect.die("not used"),
    delete: () => Effect.die("not used")
  })
  const hasher = PasswordHasher.of({
    hash: () => Effect.succeed(Redacted.make("hash")),
    verify: () => Effect.succeed(true)
  })
  return {
    created,
    layer: UserService.layer.pipe(
      Layer.provide([Layer.succeed(UserRepository, repository), Layer.succeed(PasswordHasher, hasher)])
    )
  }
}

const ensure = (name: string) =>
  Effect.flatMap(
    Effect.service(UserService),
    (service) => service.ensureFirstAdmin(name, Redacted.make("long-enough-password"))
  )

describe("UserService.ensureFirstAdmin (start-up)", () => {
  it.effect("no ADMIN user and a free name: creates an ADMIN user of that name, linked to a new admin record", () => {
    const { created, layer } = usersLayer([{ name: "coach", role: "COACH" }])
    return Effect.gen(function*() {
      expect(yield* ensure("admin")).toEqual({ _tag: "Created" })
      expect(created).toMatchObject([{ name: "admin", role: "ADMIN", link: "create" }])
    }).pipe(Effect.provide(layer))
  })

  it.effect("an ADMIN user exists: nothing to do", () => {
    const { created, layer } = usersLayer([{ name: "boss", role: "ADMIN" }, { name: "admin", role: "COACH" }])
    return Effect.gen(function*() {
      expect(yield* ensure("admin")).toEqual({ _tag: "AdminExists" })
      expect(created).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("no ADMIN user and the name taken by a user of another role: nothing created, nobody promoted, the role told", () => {
    const { created, layer } = usersLayer([{ name: "admin", role: "ATHLETE" }])
    return Effect.gen(function*() {
      expect(yield* ensure("admin")).toEqual({ _tag: "NameTaken", role: "ATHLETE" })
      expect(created).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("another instance starting at once creates the admin first: it exists", () => {
    const { layer } = usersLayer([], { name: "admin", role: "ADMIN" })
    return Effect.gen(function*() {
      expect(yield* ensure("admin")).toEqual({ _tag: "AdminExists" })
    }).pipe(Effect.provide(layer))
  })

  it.effect("a user of another role takes the name between the check and the create: NameTaken with its role", () => {
    const { layer } = usersLayer([], { name: "admin", role: "COACH" })
    return Effect.gen(function*() {
      expect(yield* ensure("admin")).toEqual({ _tag: "NameTaken", role: "COACH" })
    }).pipe(Effect.provide(layer))
  })

  it.effect("a short ADMIN_PASSWORD still stops the start when an admin must be created", () => {
    const { layer } = usersLayer([])
    return Effect.gen(function*() {
      const service = yield* UserService
      const error = yield* Effect.flip(service.ensureFirstAdmin("admin", Redacted.make("short")))
      expect(error).toMatchObject({ _tag: "InvalidValue", field: "ADMIN_PASSWORD" })
    }).pipe(Effect.provide(layer))
  })
})
