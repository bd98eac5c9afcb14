import { traced } from "../shared/traced.ts"
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { InvalidValue } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import type { Role } from "../shared/Role.ts"
import { Password, type UserCreate, type UserUpdate } from "./User.ts"
import { PasswordHasher } from "../auth/PasswordHasher.ts"
import { type UserChanges, UserRepository } from "./UserRepository.ts"
import type { FirstAdminOutcome } from "./FirstAdminOutcome.ts"
import { found } from "../shared/found.ts"
import { resolveLink } from "./UserLinks.ts"

const isPassword = Schema.is(Password)

const created: FirstAdminOutcome = { _tag: "Created" }
const adminExists: FirstAdminOutcome = { _tag: "AdminExists" }
/** The name is an ADMIN user's when another instance, starting at the same moment, created it first. */
const nameTakenBy = (role: Role): FirstAdminOutcome => role === "ADMIN" ? adminExists : { _tag: "NameTaken", role }

const make = Effect.gen(function*() {
  const users = yield* UserRepository
  const hasher = yield* PasswordHasher

  const linkOrFail = (...args: Parameters<typeof resolveLink>) => {
    const link = resolveLink(...args)
    return link instanceof InvalidValue ? Effect.fail(link) : Effect.succeed(link)
  }

  return {
    create: traced("UserService.create")(function*(input: UserCreate) {
      yield* authorize("user.create")
      const link = (yield* linkOrFail(input.role, input, true))!
      const passwordHash = yield* hasher.hash(Redacted.make(input.password))
      return yield* users.create({ name: input.name, email: input.email, role: input.role, passwordHash, link })
    }),
    list: traced("UserService.list")(function*() {
      yield* authorize("user.list")
      return yield* users.list()
    }),
    get: traced("UserService.get")(function*(id: UserId) {
      yield* authorize("user.read", { userId: id })
      return yield* users.findById(id).pipe(found("User", id))
    }),
    update: traced("UserService.update")(function*(id: UserId, input: UserUpdate) {
      yield* authorize("user.update")
      const current = yield* users.findById(id).pipe(found("User", id))
      const role = input.role ?? current.role
      const roleChanged = role !== current.role
      const link = yield* linkOrFail(role, input, roleChanged)
      const passwordHash = input.password === undefined ? undefined : yield* hasher.hash(Redacted.make(input.password))
      // A token carries the rights of the moment it was issued: a new role or password ends the old tokens.
      // Token times are whole seconds: the bound is the next second, so that a token issued earlier in
      // this same second ends too (login issues tokens no earlier than the bound).
      const revoke = roleChanged || passwordHash !== undefined
      const changes: UserChanges = {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.email === undefined ? {} : { email: input.email }),
        ...(roleChanged ? { role } : {}),
        ...(passwordHash === undefined ? {} : { passwordHash }),
        ...(link === undefined ? {} : { link }),
        ...(revoke ? { revokeTokensIssuedBefore: Math.floor((yield* Clock.currentTimeMillis) / 1000) + 1 } : {})
      }
      return yield* users.update(id, changes)
    }),
    delete: traced("UserService.delete")(function*(id: UserId) {
      yield* authorize("user.delete")
      return yield* users.delete(id)
    }),
    /**
     * Start-up, not a request: creates the first admin when no ADMIN user exists, and says what it
     * did. A user of another role who has the name is left as it is (`NameTaken`): promoting
     * whoever holds a name would hand the club to them. Two instances starting at once may both
     * try; the loser finds the name taken by the other's new admin.
     */
    ensureFirstAdmin: traced("UserService.ensureFirstAdmin")(
      function*(name: string, password: Redacted.Redacted<string>) {
        if ((yield* users.countByRole("ADMIN")) > 0) return adminExists
        if (!isPassword(Redacted.value(password))) {
          return yield* new InvalidValue({ field: "ADMIN_PASSWORD", reason: "must be 8 to 1000 characters" })
        }
        const holder = yield* users.findCredentialsByName(name)
        if (Option.isSome(holder)) return nameTakenBy(holder.value.user.role)
        const passwordHash = yield* hasher.hash(password)
        return yield* users.create({ name, email: null, role: "ADMIN", passwordHash, link: "create" }).pipe(
          Effect.as(created),
          Effect.catchTag("UserNameTaken", () =>
            users.findCredentialsByName(name).pipe(
              Effect.map(Option.match({ onNone: () => adminExists, onSome: (taken) => nameTakenBy(taken.user.role) }))
            )),
          Effect.orDie
        )
      }
    )
  }
})

export class UserService extends Context.Service<UserService, Effect.Success<typeof make>>()(
  "@club/core/UserService"
) {
  static readonly layer = Layer.effect(UserService, make)
}
