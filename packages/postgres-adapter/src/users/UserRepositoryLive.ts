import { traced, userDeleted, userEvent } from "@club/core"
import {
  EntityNotFound,
  User,
  LastAdminUser,
  type NewUser,
  RecordAlreadyLinked,
  type Role,
  type UserChanges,
  type UserId,
  UserNameTaken,
  UserRepository
} from "@club/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { countFromRow } from "../shared/countRow.ts"
import { readRows, type Row } from "../shared/rowReader.ts"
import { credentialsFromRow, userFromRow } from "./userRow.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { idFromRow } from "../shared/idRow.ts"
import { insertWithGeneratedId } from "../shared/insertWithId.ts"
import { int8Array } from "../shared/int8Array.ts"
import { readsById, readsShared } from "../shared/readsGathered.ts"
import { requireKnownIds } from "../shared/requireKnownIds.ts"
import { onUniqueViolation } from "../shared/onUniqueViolation.ts"
import { selectListOf } from "../shared/snakeCase.ts"
import { CredentialsCache } from "./CredentialsCache.ts"
import { writeEvents } from "../webhooks/outbox.ts"
import {
  alreadyLinkedErrors,
  type LinkColumns,
  linkColumns,
  linkedRecord,
  linkKindOfRole,
  linkTargets
} from "./userLinks.ts"
import { transaction } from "../shared/transaction.ts"

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cache = yield* CredentialsCache
    const userColumns = sql.literal(selectListOf(Object.keys(User.fields)))
    const credentialColumns = sql.literal(selectListOf(["passwordHash", "tokensValidAfter"]))

    const firstUser = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullishOr(rows[0]), userFromRow)
    const countOf = (rows: ReadonlyArray<Row>) => rows[0] === undefined ? 0 : countFromRow(rows[0]).count

    const credentialsOf = (rows: ReadonlyArray<Row>) =>
      Effect.sync(() =>
        Option.map(Option.fromNullishOr(rows[0]), (row) => {
          const { passwordHash, tokensValidAfter } = credentialsFromRow(row)
          return { user: userFromRow(row), passwordHash: Redacted.make(passwordHash), tokensValidAfter }
        })
      )

    /**
     * The link columns to store: the linked record, the other two cleared. For `create`, a new record
     * of the role's kind, named after the user, is inserted in the caller's transaction.
     */
    const resolveLink = (link: NewUser["link"], role: Role, userName: string) =>
      Effect.gen(function*() {
        if (link === "create") {
          const kind = linkKindOfRole[role]
          const row = yield* insertWithGeneratedId(sql, linkTargets[kind].table, { name: userName })
          return linkColumns(kind, idFromRow(row).id)
        }
        const { kind, id } = linkedRecord(link)
        const target = linkTargets[kind]
        yield* requireKnownIds(sql, { field: kind, entity: target.entity, table: target.table, ids: [id] })
        return linkColumns(kind, id)
      })

    /**
     * Every write that can take the ADMIN role from a user takes this lock first, before any row
     * lock, and holds it to its commit: two admins demoting or deleting each other at once are
     * serialised, and the second counts the ADMIN users after the first has committed.
     */
    const lockAdminUsers = sql`SELECT pg_advisory_xact_lock(hashtext('club.admin-users'))`

    /** Inside the transaction that holds the lock: the ADMIN user `id` must not be the only one. */
    const requireAnotherAdmin = (id: UserId) =>
      Effect.gen(function*() {
        const count = countOf(yield* sql`SELECT count(*)::int AS count FROM users WHERE role = 'ADMIN'`)
        if (count <= 1) return yield* new LastAdminUser({ userId: id })
      })

    /** The name and each link are UNIQUE; a concurrent writer can still take them first, so the constraints decide. */
    const refuseTaken = (name: string, links: LinkColumns | undefined) =>
      onUniqueViolation<UserNameTaken | RecordAlreadyLinked>({
        users_name_unique: () => new UserNameTaken({ name }),
        ...(links === undefined ? {} : alreadyLinkedErrors(links))
      })

    const create = traced("UserRepository.create")(function*(input: NewUser) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const links = yield* resolveLink(input.link, input.role, input.name)
        const rows = yield* sql`INSERT INTO users ${
          sql.insert({
            name: input.name,
            email: input.email,
            role: input.role,
            password_hash: Redacted.value(input.passwordHash),
            ...links
          })
        } RETURNING ${userColumns}`.pipe(refuseTaken(input.name, links))
        const user = userFromRow(rows[0]!)
        yield* writeEvents(sql, [userEvent("userCreated", user)])
        return user
      }))
    }, dieOnInfrastructureError)

    const findOne = readsById(
      sql,
      (ids) =>
        Effect.map(
          sql`SELECT ${userColumns} FROM users WHERE id = ANY(${int8Array(ids)}::bigint[])`,
          readRows(userFromRow)
        )
    )
    const findById = traced("UserRepository.findById")(function*(id: UserId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const findCredentialsByName = traced("UserRepository.findCredentialsByName")(function*(name: string) {
      return yield* credentialsOf(
        yield* sql`SELECT ${userColumns}, ${credentialColumns} FROM users WHERE name = ${name}`
      )
    }, dieOnInfrastructureError)

    const findCredentialsById = traced("UserRepository.findCredentialsById")(function*(id: UserId) {
      return yield* cache.lookup(
        id,
        Effect.flatMap(sql`SELECT ${userColumns}, ${credentialColumns} FROM users WHERE id = ${id}`, credentialsOf)
          .pipe(
            dieOnInfrastructureError
          )
      )
    })

    const all = readsShared(sql, Effect.map(sql`SELECT ${userColumns} FROM users ORDER BY id`, readRows(userFromRow)))
    const list = traced("UserRepository.list")(function*() {
      return yield* all
    }, dieOnInfrastructureError)

    const update = traced("UserRepository.update")(function*(id: UserId, changes: UserChanges) {
      // One transaction (`invalidating` opens it): the row lock below holds until the update commits.
      return yield* cache.invalidating(Effect.gen(function*() {
        const takesAdminRole = changes.role !== undefined && changes.role !== "ADMIN"
        if (takesAdminRole) yield* lockAdminUsers
        const current = firstUser(yield* sql`SELECT ${userColumns} FROM users WHERE id = ${id} FOR UPDATE`)
        if (Option.isNone(current)) return yield* new EntityNotFound({ entity: "User", id })
        if (takesAdminRole && current.value.role === "ADMIN") yield* requireAnotherAdmin(id)
        const name = changes.name ?? current.value.name
        const links = changes.link === undefined
          ? undefined
          : yield* resolveLink(changes.link, changes.role ?? current.value.role, name)
        const assignments: Array<Statement.Fragment> = []
        const assign = (column: string, value: unknown) => assignments.push(sql`${sql(column)} = ${value}`)
        if (changes.name !== undefined) assign("name", changes.name)
        if (changes.email !== undefined) assign("email", changes.email)
        if (changes.role !== undefined) assign("role", changes.role)
        if (changes.passwordHash !== undefined) assign("password_hash", Redacted.value(changes.passwordHash))
        if (links !== undefined) { for (const [column, value] of Object.entries(links)) assign(column, value) }
        if (changes.revokeTokensIssuedBefore !== undefined) {
          // Revocation only moves forward: an older instant would bring revoked tokens back.
          assignments.push(sql`tokens_valid_after = GREATEST(tokens_valid_after, ${changes.revokeTokensIssuedBefore})`)
        }
        // Every accepted edit is told, even one that changes nothing (decision 0283).
        const user = assignments.length === 0 ? current.value : userFromRow(
          (yield* sql`UPDATE users SET ${sql.csv(assignments)} WHERE id = ${id} RETURNING ${userColumns}`
            .pipe(refuseTaken(name, links)))[0]!
        )
        yield* writeEvents(sql, [userEvent("userChanged", user)])
        return user
      }))
    }, dieOnInfrastructureError)

    const remove = traced("UserRepository.delete")(function*(id: UserId) {
      // One transaction (`invalidating` opens it), holding the admin lock and then the user's row.
      yield* cache.invalidating(Effect.gen(function*() {
        yield* lockAdminUsers
        const [target] = yield* sql<{ role: string }>`SELECT role FROM users WHERE id = ${id} FOR UPDATE`
        if (target === undefined) return yield* new EntityNotFound({ entity: "User", id })
        if (target.role === "ADMIN") yield* requireAnotherAdmin(id)
        yield* sql`DELETE FROM users WHERE id = ${id}`
        yield* writeEvents(sql, [userDeleted(id)])
      }))
    }, dieOnInfrastructureError)

    const countByRole = traced("UserRepository.countByRole")(function*(role: Role) {
      return countOf(yield* sql`SELECT count(*)::int AS count FROM users WHERE role = ${role}`)
    }, dieOnInfrastructureError)

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
