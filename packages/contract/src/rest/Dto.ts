import { Schema } from "effect"
import {
  ActivityId,
  AdminId,
  AthleteId,
  BoundedArray,
  CoachId,
  Duree,
  Email,
  LocalDateTime,
  Password,
  Role,
  RoleFromAnyCase,
  SessionId,
  ShortText,
  SuppliedAdminId,
  SuppliedAthleteId,
  SuppliedCoachId,
  SuppliedSessionId,
  UserId,
  UserName
} from "@club/core"

/** Absent and null mean the same on input: nothing given. */
const optional = <S extends Schema.Top>(schema: S) => Schema.optional(Schema.NullOr(schema))

// ---- Inputs: the seed's field names, every field optional unless the seed requires it.

export const ActiviteInput = Schema.Struct({
  /** Ignored on create, as the seed says. */
  id: optional(Schema.Number),
  name: optional(ShortText),
  theme: optional(ShortText),
  duree: optional(Duree),
  dataActivite: optional(BoundedArray(ShortText)),
  sessionId: SessionId
})

/**
 * The body of an athlete update, which ignores `id` (it may hold any id, e.g. the DTO read back).
 * The create inputs below are the same bodies, except that a supplied `id` is bounded as core's
 * create inputs bound it.
 */
export const AthleteInput = Schema.Struct({
  id: optional(AthleteId),
  name: optional(ShortText),
  categorie: optional(ShortText),
  niveau: optional(ShortText),
  /** Accepted and not stored: the athlete endpoints always answer `[]`. */
  groupes: optional(BoundedArray(ShortText)),
  sessionIds: optional(BoundedArray(SessionId)),
  /** Accepted and ignored: the link is set on the user (`/users`). */
  userId: optional(Schema.Number)
})

export const AthleteCreateInput = AthleteInput.mapFields((fields) => ({ ...fields, id: optional(SuppliedAthleteId) }))

export const CoachInput = Schema.Struct({
  id: optional(CoachId),
  name: optional(ShortText)
})

export const CoachCreateInput = CoachInput.mapFields((fields) => ({ ...fields, id: optional(SuppliedCoachId) }))

export const AdminInput = Schema.Struct({
  id: optional(AdminId),
  name: optional(ShortText)
})

export const AdminCreateInput = AdminInput.mapFields((fields) => ({ ...fields, id: optional(SuppliedAdminId) }))

export const SessionInput = Schema.Struct({
  id: optional(SessionId),
  name: optional(ShortText),
  isRecurrent: optional(Schema.Boolean),
  creneau: optional(LocalDateTime),
  duree: optional(Duree),
  groupe: optional(ShortText),
  coachId: optional(CoachId),
  athleteIds: optional(BoundedArray(AthleteId)),
  activiteIds: optional(BoundedArray(ActivityId))
})

export const SessionCreateInput = SessionInput.mapFields((fields) => ({ ...fields, id: optional(SuppliedSessionId) }))

export const UserCreateInput = Schema.Struct({
  name: UserName,
  email: optional(Email),
  role: RoleFromAnyCase,
  password: Password,
  coachId: optional(CoachId),
  athleteId: optional(AthleteId),
  adminId: optional(AdminId)
})

export const UserUpdateInput = Schema.Struct({
  name: Schema.optionalKey(UserName),
  /** null clears the e-mail address. */
  email: Schema.optionalKey(Schema.NullOr(Email)),
  role: Schema.optionalKey(RoleFromAnyCase),
  password: Schema.optionalKey(Password),
  coachId: optional(CoachId),
  athleteId: optional(AthleteId),
  adminId: optional(AdminId)
})

export const LoginInput = Schema.Struct({
  name: ShortText,
  password: Schema.String.check(Schema.isMaxLength(1000))
})

// ---- Outputs: exactly the seed's shapes, quirks included.

/** The seed's athlete endpoints fill only id, name, categorie and niveau. */
export const AthleteDto = Schema.Struct({
  id: AthleteId,
  name: Schema.NullOr(Schema.String),
  categorie: Schema.NullOr(Schema.String),
  niveau: Schema.NullOr(Schema.String),
  groupes: Schema.Tuple([]),
  sessionIds: Schema.Tuple([]),
  userId: Schema.Null
})
export type AthleteDto = typeof AthleteDto.Type

/** The seed's activity endpoints answer `id: null`; the ids are in a session's `activiteIds`. */
export const ActiviteDto = Schema.Struct({
  id: Schema.Null,
  name: Schema.NullOr(Schema.String),
  theme: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Schema.Int),
  dataActivite: Schema.Array(Schema.String),
  sessionId: Schema.NullOr(SessionId)
})
export type ActiviteDto = typeof ActiviteDto.Type

export const SessionDto = Schema.Struct({
  id: SessionId,
  name: Schema.NullOr(Schema.String),
  isRecurrent: Schema.NullOr(Schema.Boolean),
  creneau: Schema.NullOr(LocalDateTime),
  duree: Schema.NullOr(Schema.Int),
  groupe: Schema.NullOr(Schema.String),
  coachId: Schema.NullOr(CoachId),
  athleteIds: Schema.Array(AthleteId),
  activiteIds: Schema.Array(ActivityId)
})
export type SessionDto = typeof SessionDto.Type

export const CoachDto = Schema.Struct({ id: CoachId, name: Schema.NullOr(Schema.String) })
export type CoachDto = typeof CoachDto.Type

export const AdminDto = Schema.Struct({ id: AdminId, name: Schema.NullOr(Schema.String) })
export type AdminDto = typeof AdminDto.Type

export const UserDto = Schema.Struct({
  id: UserId,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  role: Role
})
export type UserDto = typeof UserDto.Type

/** `{id, name}` of a session, as the athlete-session queries answer. */
export const SessionSummaryDto = Schema.Struct({ id: SessionId, name: Schema.NullOr(Schema.String) })
export type SessionSummaryDto = typeof SessionSummaryDto.Type

/** `{id, name}` of an activity, as the activities-of-a-session query answers. */
export const ActivitySummaryDto = Schema.Struct({ id: ActivityId, name: Schema.NullOr(Schema.String) })
export type ActivitySummaryDto = typeof ActivitySummaryDto.Type

export const LoginDto = Schema.Struct({
  token: Schema.String,
  tokenType: Schema.Literal("Bearer"),
  expiresIn: Schema.Int,
  user: UserDto
})
export type LoginDto = typeof LoginDto.Type

export const HealthDto = Schema.Struct({ status: Schema.Literals(["ok", "ready"]) })
