import { Effect, Layer, Option } from "effect"
import { EntityNotFound, LastAdminUser, RecordAlreadyLinked, UserNameTaken } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import type { Role } from "../shared/Role.ts"
import { User, type UserCredentials } from "./User.ts"
import { type NewUser, type UserChanges, UserRepository } from "./UserRepository.ts"
import { traced } from "../shared/traced.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import { userDeleted, userEvent } from "../webhooks/domainEvents.ts"
import { InMemoryStore, type StoredUser } from "../shared/InMemoryStore.ts"
import {
  createLinkedRecord,
  type LinkedRecord,
  linkedRecord,
  type Links,
  linksTo,
  tableOfLink,
  userLinkedTo
} from "./inMemoryUserLinks.ts"

const credentialsOf = ({ passwordHash, tokensValidAfter, user }: StoredUser): UserCredentials => ({
  user,
  passwordHash,
  tokensValidAfter
})

export const InMemoryUserRepository = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const outbox = yield* InMemoryOutbox
    const { users } = store

    const byName = (name: string) => {
      for (const stored of users.values()) if (stored.user.name === name) return stored
      return undefined
    }

    const countOf = (role: Role) => {
      let count = 0
      for (const stored of users.values()) if (stored.user.role === role) count++
      return count
    }

    /**
     * The checks of a write that names `name` and links `link` (for user `self`, on update), in the
     * order the database meets them: the linked record must exist, then the name and the record must
     * be no other user's. Undefined when the write may go ahead.
     */
    const refusal = (name: string | undefined, link: LinkedRecord | undefined, self?: UserId) => {
      if (link !== undefined) {
        const unknown = tableOfLink(store, link.field).unknownReferences(link.field, [link.id])
        if (unknown !== undefined) return unknown
      }
      if (name !== undefined) {
        const holder = byName(name)
        if (holder !== undefined && holder.id !== self) return new UserNameTaken({ name })
      }
      if (link !== undefined) {
        const holder = userLinkedTo(store, link)
        if (holder !== undefined && holder.id !== self) {
          return new RecordAlreadyLinked({ entity: tableOfLink(store, link.field).entity, id: link.id })
        }
      }
      return undefined
    }

    /** The links to store; a `create` link makes its record now, so call it once every check has passed. */
    const linksOf = (link: NewUser["link"], role: Role, name: string): Links => {
      if (link === "create") return createLinkedRecord(store, role, name)
      const { field, id } = linkedRecord(link)
      return linksTo(field, id)
    }

    const create = traced("UserRepository.create")(function*(input: NewUser) {
      const refused = refusal(input.name, input.link === "create" ? undefined : linkedRecord(input.link))
      if (refused !== undefined) return yield* refused
      const links = linksOf(input.link, input.role, input.name)
      const id = users.newId(null) as UserId
      const user = new User({ id, name: input.name, email: input.email, role: input.role, ...links })
      users.insert({ id, user, passwordHash: input.passwordHash, tokensValidAfter: 0 })
      yield* appendEvents(outbox, [userEvent("userCreated", user)])
      return user
    })

    const findById = traced("UserRepository.findById")(function*(id: UserId) {
      return Option.map(Option.fromNullishOr(users.get(id)), (stored) => stored.user)
    })

    const findCredentialsByName = traced("UserRepository.findCredentialsByName")(function*(name: string) {
      return Option.map(Option.fromNullishOr(byName(name)), credentialsOf)
    })

    const findCredentialsById = traced("UserRepository.findCredentialsById")(function*(id: UserId) {
      return Option.map(Option.fromNullishOr(users.get(id)), credentialsOf)
    })

    const list = traced("UserRepository.list")(function*() {
      return users.all().map((stored) => stored.user)
    })

    const update = traced("UserRepository.update")(function*(id: UserId, changes: UserChanges) {
      const stored = users.get(id)
      if (stored === undefined) return yield* new EntityNotFound({ entity: "User", id })
      const current = stored.user
      if (changes.role !== undefined && changes.role !== "ADMIN" && current.role === "ADMIN" && countOf("ADMIN") <= 1) {
        return yield* new LastAdminUser({ userId: id })
      }
      const name = changes.name ?? current.name
      const role = changes.role ?? current.role
      const refused = refusal(
        changes.name,
        changes.link === undefined || changes.link === "create" ? undefined : linkedRecord(changes.link),
        id
      )
      if (refused !== undefined) return yield* refused
      const links = changes.link === undefined ? {} : linksOf(changes.link, role, name)
      const user = new User({
        ...current,
        name,
        role,
        ...(changes.email === undefined ? {} : { email: changes.email }),
        ...links
      })
      users.replace({
        id,
        user,
        passwordHash: changes.passwordHash ?? stored.passwordHash,
        // Revocation only moves forward: an older instant would bring revoked tokens back.
        tokensValidAfter: Math.max(stored.tokensValidAfter, changes.revokeTokensIssuedBefore ?? 0)
      })
      // Every accepted edit is told, even one that leaves the values as they were (decision 0283).
      yield* appendEvents(outbox, [userEvent("userChanged", user)])
      return user
    })

    const remove = traced("UserRepository.delete")(function*(id: UserId) {
      const stored = users.get(id)
      if (stored === undefined) return yield* new EntityNotFound({ entity: "User", id })
      if (stored.user.role === "ADMIN" && countOf("ADMIN") <= 1) return yield* new LastAdminUser({ userId: id })
      users.delete(id)
      // Its guardianship links go with it, as the foreign key's cascade removes them in the database.
      for (const [athleteId, guardians] of store.guardians) {
        if (guardians.delete(id) && guardians.size === 0) store.guardians.delete(athleteId)
      }
      // So do its notice preferences.
      store.noticePreferences.delete(id)
      yield* appendEvents(outbox, [userDeleted(id)])
    })

    const countByRole = traced("UserRepository.countByRole")(function*(role: Role) {
      return countOf(role)
    })

    return UserRepository.of({
      create,
      findById,
      findCredentialsByName,
      findCredentialsById,
      list,
      update,
      delete: remove,
      countByRole
    })
  })
)
