import { Context, type Effect, type Option, type Redacted } from "effect"
import type { EntityNotFound, LastAdminUser, RecordAlreadyLinked, UnknownReferences, UserNameTaken } from "../domain/Errors.ts"
import type { AdminId, AthleteId, CoachId, UserId } from "../domain/Ids.ts"
import type { Role } from "../domain/Role.ts"
import type { User, UserCredentials } from "../domain/User.ts"

/** A user to store: the password already hashed, and exactly one link resolved by the use-case. */
export interface NewUser {
  readonly name: string
  readonly email: string | null
  readonly role: Role
  readonly passwordHash: Redacted.Redacted<string>
  /** The record to link to; `create` makes a new record of the role's kind, named after the user. */
  readonly link: { readonly coachId: CoachId } | { readonly athleteId: AthleteId } | { readonly adminId: AdminId } | "create"
}

export interface UserChanges {
  readonly name?: string
  readonly email?: string | null
  readonly role?: Role
  readonly passwordHash?: Redacted.Redacted<string>
  readonly link?: NewUser["link"]
  /** Set when role or password changes, so that tokens issued before no longer count. */
  readonly revokeTokensIssuedBefore?: number
}

export type UserWriteError = UserNameTaken | RecordAlreadyLinked | UnknownReferences

export class UserRepository extends Context.Service<UserRepository, {
  /** One transaction: the user and, for link `create`, its new record. */
  create(input: NewUser): Effect.Effect<User, UserWriteError>
  findById(id: UserId): Effect.Effect<Option.Option<User>>
  findCredentialsByName(name: string): Effect.Effect<Option.Option<UserCredentials>>
  findCredentialsById(id: UserId): Effect.Effect<Option.Option<UserCredentials>>
  list(): Effect.Effect<ReadonlyArray<User>>
  /**
   * Refuses to take the ADMIN role from the last ADMIN user (`LastAdminUser`), also when two
   * such writes run at once: at most one of them counts the other's user as the admin who remains.
   */
  update(id: UserId, changes: UserChanges): Effect.Effect<User, EntityNotFound | UserWriteError | LastAdminUser>
  /** Refuses to delete the last ADMIN user (`LastAdminUser`), under concurrency as `update` does. */
  delete(id: UserId): Effect.Effect<void, EntityNotFound | LastAdminUser>
  countByRole(role: Role): Effect.Effect<number>
}>()("@club/core/UserRepository") {}
