import { Redacted, Schema } from "effect"
import { AdminId, AthleteId, CoachId, UserId } from "../shared/Ids.ts"
import { Limits } from "../shared/Limits.ts"
import { Role } from "../shared/Role.ts"
import { isMaxCharacters, isMinCharacters, ShortText } from "../shared/Text.ts"

export const UserName = ShortText.check(Schema.isNonEmpty(), Schema.isTrimmed())
export const Email = ShortText.check(Schema.isPattern(/^[^\s@]+@[^\s@]+$/u, { expected: "an e-mail address" }))
/** 8 to 1,000 characters, counted in Unicode code points as JSON Schema's `minLength` and `maxLength` count them. */
export const Password = Schema.String.check(
  isMinCharacters(Limits.minPasswordLength),
  isMaxCharacters(Limits.maxPasswordLength)
)

/** A user as every output shows it: the password hash is not part of it. */
export class User extends Schema.Class<User>("User")({
  id: UserId,
  name: UserName,
  email: Schema.NullOr(Email),
  role: Role,
  coachId: Schema.NullOr(CoachId),
  athleteId: Schema.NullOr(AthleteId),
  adminId: Schema.NullOr(AdminId)
}) {}

/**
 * The stored user as login and token checks need it. Never leaves core's auth use-case:
 * the hash is redacted so that logging or printing it shows nothing.
 */
export interface UserCredentials {
  readonly user: User
  readonly passwordHash: Redacted.Redacted<string>
  /** Tokens issued before this instant (epoch seconds) no longer count: set on role change and password change. */
  readonly tokensValidAfter: number
}

/** The record a user is linked to. Absent: a new record of the role's kind is created with the user's name. */
export const UserLinks = {
  coachId: Schema.NullOr(CoachId),
  athleteId: Schema.NullOr(AthleteId),
  adminId: Schema.NullOr(AdminId)
}

export class UserCreate extends Schema.Class<UserCreate>("UserCreate")({
  name: UserName,
  email: Schema.NullOr(Email),
  role: Role,
  password: Password,
  ...UserLinks
}) {}

/** Each field, when present, replaces the stored one. */
export class UserUpdate extends Schema.Class<UserUpdate>("UserUpdate")({
  name: Schema.optionalKey(UserName),
  email: Schema.optionalKey(Schema.NullOr(Email)),
  role: Schema.optionalKey(Role),
  password: Schema.optionalKey(Password),
  coachId: Schema.optionalKey(Schema.NullOr(CoachId)),
  athleteId: Schema.optionalKey(Schema.NullOr(AthleteId)),
  adminId: Schema.optionalKey(Schema.NullOr(AdminId))
}) {}
