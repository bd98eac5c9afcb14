import { Context, type Effect, type Option, type Redacted } from "effect"
import type {
  EntityNotFound,
  LastAdminUser,
  RecordAlreadyLinked,
  UnknownReferences,
  UserNameTaken
} from "../shared/Errors.ts"
import type { AdminId, AthleteId, CoachId, UserId } from "../shared/Ids.ts"
import type { Role } from "../shared/Role.ts"
import type { User, UserCredentials } from "./User.ts"

/** A user to store: the password already hashed, and exactly one link resolved by the use-case. */
export interface NewUser {
  readonly name: string
  readonly email: string | null
  readonly role: Role
  readonly passwordHash: Redacted.Redacted<string>
  /** The record to link to; `create` makes a new record of the role's kind, named after the user. */
  readonly link:
    | { readonly coachId: CoachId }
    | { readonly athleteId: AthleteId }
    | { readonly adminId: AdminId }
    | "create"
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

/**
 * Users: a name, a role, a password hash, and a link to at most one coach, athlete or admin
 * record. Names are unique, compared exactly (case included); a record is linked to at most one
 * user. Ids are always generated. Lists are in id order. Every write is all or nothing.
 *
 * A write that names a record (`link`) checks, in this order: the record exists (otherwise
 * `UnknownReferences`, field `coachId`/`athleteId`/`adminId`, entity of that kind); the name is no
 * other user's (`UserNameTaken`); the record is linked to no other user (`RecordAlreadyLinked`).
 * Link `create` makes the record in the same write, after those checks. Linking one record clears
 * the user's other two links. Deleting a record clears its user's link (see the record's port).
 */
export class UserRepository extends Context.Service<UserRepository, {
  /** One write: the user and, for link `create`, its new record. Tokens issued at any time count (`tokensValidAfter` 0). */
  create(input: NewUser): Effect.Effect<User, UserWriteError>
  findById(id: UserId): Effect.Effect<Option.Option<User>>
  /** The user of exactly that name. */
  findCredentialsByName(name: string): Effect.Effect<Option.Option<UserCredentials>>
  findCredentialsById(id: UserId): Effect.Effect<Option.Option<UserCredentials>>
  list(): Effect.Effect<ReadonlyArray<User>>
  /**
   * Applies each change given, and nothing else: `{}` answers the user as stored. The links change
   * only with `link` (a new record for `create` is of the new role's kind, named after the new
   * name). `revokeTokensIssuedBefore` moves `tokensValidAfter` forward, never back. A missing user:
   * `EntityNotFound`; then, taking the ADMIN role from the last ADMIN user: `LastAdminUser`, also
   * when two such writes run at once (at most one of them counts the other's user as the admin
   * who remains); then the checks above.
   */
  update(id: UserId, changes: UserChanges): Effect.Effect<User, EntityNotFound | UserWriteError | LastAdminUser>
  /**
   * Refuses to delete the last ADMIN user (`LastAdminUser`), under concurrency as `update` does.
   * The record the user was linked to stays.
   */
  delete(id: UserId): Effect.Effect<void, EntityNotFound | LastAdminUser>
  countByRole(role: Role): Effect.Effect<number>
}>()("@club/core/UserRepository") {}
