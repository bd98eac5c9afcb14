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
  RoleFromAnyCase,
  SessionId,
  ShortText,
  SuppliedAdminId,
  SuppliedAthleteId,
  SuppliedCoachId,
  SuppliedSessionId,
  UserId,
  UserName,
  isMaxCharacters,
  Limits,
  Role as CoreRole
} from "@club/core"
import { documented } from "./Documented.ts"

/** Absent and null mean the same on input: nothing given. */
const optional = <S extends Schema.Top>(schema: S) => Schema.optional(Schema.NullOr(schema))

// ---- Inputs: the seed's field names, every field optional unless the seed requires it.

export const ActiviteInput = documented(
  Schema.Struct({
    /** Ignored, as the seed says: activity ids are generated. */
    id: optional(Schema.Finite),
    name: optional(ShortText),
    theme: optional(ShortText),
    duree: optional(Duree),
    dataActivite: optional(BoundedArray(ShortText)),
    sessionId: SessionId
  }),
  "ActivityInput",
  "The body of an activity create or update (the seed's ActiviteDTO). `sessionId` is required and must name an existing session; `id` is ignored. On update a null or absent `duree` is stored as 0; on create it stays null.",
  [{ name: "Sprint intervals", theme: "cardio", duree: 20, dataActivite: ["6 x 200 m"], sessionId: 7 }]
)

/**
 * The body of an athlete update, which ignores `id` (it may hold any id, e.g. the DTO read back).
 * The create inputs below are the same bodies, except that a supplied `id` is bounded as core's
 * create inputs bound it.
 */
const athleteFields = {
  id: optional(AthleteId),
  name: optional(ShortText),
  categorie: optional(ShortText),
  niveau: optional(ShortText),
  /** Accepted and not stored: the athlete endpoints always answer `[]`. */
  groupes: optional(BoundedArray(ShortText)),
  sessionIds: optional(BoundedArray(SessionId)),
  /** Accepted and ignored: the link is set on the user (`/users`). */
  userId: optional(Schema.Finite)
}

export const AthleteInput = documented(
  Schema.Struct(athleteFields),
  "AthleteUpdate",
  "The body of an athlete update (the seed's AthleteDTO). `name`, `categorie` and `niveau` replace the stored ones; `sessionIds`, when present, replaces the athlete's sessions. `id` (any id, e.g. the one read back), `groupes` and `userId` are accepted and ignored.",
  [{ name: "Alex Martin", categorie: "Senior", niveau: "Regional", sessionIds: [7, 9] }]
)

export const AthleteCreateInput = documented(
  Schema.Struct({ ...athleteFields, id: optional(SuppliedAthleteId) }),
  "AthleteCreate",
  "The body of an athlete create (the seed's AthleteDTO). `name`, `categorie` and `niveau` are stored. A supplied `id` (at most 2147483647) becomes the new athlete's id (409 when taken); without one the id is generated. `groupes`, `sessionIds` and `userId` are accepted and ignored.",
  [{ name: "Alex Martin", categorie: "Senior", niveau: "Regional" }]
)

export const CoachInput = documented(
  Schema.Struct({
    id: optional(CoachId),
    name: optional(ShortText)
  }),
  "CoachUpdate",
  "The body of a coach update (the seed's CoachDTO): `name` replaces the stored one when present and not null; `id` is ignored.",
  [{ name: "Camille Durand" }]
)

export const CoachCreateInput = documented(
  Schema.Struct({
    id: optional(SuppliedCoachId),
    name: optional(ShortText)
  }),
  "CoachCreate",
  "The body of a coach create (the seed's CoachDTO). A supplied `id` (at most 2147483647) becomes the new coach's id (409 when taken); without one the id is generated.",
  [{ name: "Camille Durand" }]
)

export const AdminInput = documented(
  Schema.Struct({
    id: optional(AdminId),
    name: optional(ShortText)
  }),
  "AdminUpdate",
  "The body of an admin update (AdminDTO): `name` replaces the stored one when present and not null; `id` is ignored.",
  [{ name: "Dominique Admin" }]
)

export const AdminCreateInput = documented(
  Schema.Struct({
    id: optional(SuppliedAdminId),
    name: optional(ShortText)
  }),
  "AdminCreate",
  "The body of an admin create (AdminDTO). A supplied `id` (at most 2147483647) becomes the new admin record's id (409 when taken); without one the id is generated.",
  [{ name: "Dominique Admin" }]
)

const sessionFields = {
  id: optional(SessionId),
  name: optional(ShortText),
  isRecurrent: optional(Schema.Boolean),
  creneau: optional(LocalDateTime),
  duree: optional(Duree),
  groupe: optional(ShortText),
  coachId: optional(CoachId),
  athleteIds: optional(BoundedArray(AthleteId)),
  activiteIds: optional(BoundedArray(ActivityId))
}

export const SessionInput = documented(
  Schema.Struct(sessionFields),
  "SessionUpdate",
  "The body of a session update (the seed's SessionDTO). Every field is checked, but only `duree`, `athleteIds` and `activiteIds` are applied, each only when present: activities listed move into the session, and the session's activities no longer listed are detached (their `sessionId` becomes null). Unknown athlete or activity ids: 400, nothing changed.",
  [{ duree: 75, athleteIds: [3, 4], activiteIds: [12] }]
)

export const SessionCreateInput = documented(
  Schema.Struct({ ...sessionFields, id: optional(SuppliedSessionId) }),
  "SessionCreate",
  "The body of a session create (the seed's SessionDTO). `athleteIds` and `activiteIds` must all exist, and `coachId` when given; the activities listed move into the new session. A supplied `id` (at most 2147483647) becomes the session's id (400 when taken); without one the id is generated.",
  [{
    name: "Tuesday track",
    isRecurrent: true,
    creneau: "2026-11-24T18:30:00",
    duree: 90,
    groupe: "Seniors",
    coachId: 2,
    athleteIds: [3, 4],
    activiteIds: []
  }]
)

export const UserCreateInput = documented(
  Schema.Struct({
    name: UserName,
    email: optional(Email),
    role: RoleFromAnyCase,
    password: Password,
    coachId: optional(CoachId),
    athleteId: optional(AthleteId),
    adminId: optional(AdminId)
  }),
  "UserCreate",
  "The body of a user create. The user is linked to the record of its role named by `coachId`, `athleteId` or `adminId` (at most one, of the role's kind, not linked to another user), or, when none is given, to a new record of that kind named after the user. `name` is unique among users (409).",
  [{ name: "camille", email: "camille@club.example", role: "COACH", password: "correct horse battery", coachId: 2 }]
)

export const UserUpdateInput = documented(
  Schema.Struct({
    name: Schema.optionalKey(UserName),
    /** null clears the e-mail address. */
    email: Schema.optionalKey(Schema.NullOr(Email)),
    role: Schema.optionalKey(RoleFromAnyCase),
    password: Schema.optionalKey(Password),
    coachId: optional(CoachId),
    athleteId: optional(AthleteId),
    adminId: optional(AdminId)
  }),
  "UserUpdate",
  "The body of a user update: each field present replaces the stored one (`email: null` clears it). A role change without a link creates a new record of the new kind, named after the user. The last ADMIN user cannot be demoted (409).",
  [{ email: "camille.durand@club.example" }]
)

export const LoginInput = documented(
  Schema.Struct({
    name: ShortText,
    password: Schema.String.check(isMaxCharacters(Limits.maxPasswordLength))
  }),
  "LoginRequest",
  "A user's name and password.",
  [{ name: "admin", password: "correct horse battery" }]
)

// ---- Outputs: exactly the seed's shapes, quirks included.

/** Always `[]` in the seed's athlete answers. */
const alwaysEmpty = <S extends Schema.Top>(item: S) => Schema.Array(item).check(Schema.isMaxLength(0))

/** The seed's athlete endpoints fill only id, name, categorie and niveau. */
export const AthleteDto = documented(
  Schema.Struct({
    id: AthleteId,
    name: Schema.NullOr(Schema.String),
    categorie: Schema.NullOr(Schema.String),
    niveau: Schema.NullOr(Schema.String),
    groupes: alwaysEmpty(Schema.String),
    sessionIds: alwaysEmpty(SessionId),
    userId: Schema.Null
  }),
  "Athlete",
  "An athlete (the seed's AthleteDTO). As the seed says, the athlete endpoints fill only `id`, `name`, `categorie` and `niveau`: `groupes` and `sessionIds` are always empty and `userId` is always null (an athlete's sessions are at `/athletes/athlete/{id}/session`).",
  [{ id: 3, name: "Alex Martin", categorie: "Senior", niveau: "Regional", groupes: [], sessionIds: [], userId: null }]
)
export type AthleteDto = typeof AthleteDto.Type

/** The seed's activity endpoints answer `id: null`; the ids are in a session's `activiteIds`. */
export const ActiviteDto = documented(
  Schema.Struct({
    id: Schema.Null,
    name: Schema.NullOr(Schema.String),
    theme: Schema.NullOr(Schema.String),
    duree: Schema.NullOr(Schema.Int),
    dataActivite: Schema.Array(Schema.String),
    sessionId: Schema.NullOr(SessionId)
  }),
  "Activity",
  "An activity of a session (the seed's ActiviteDTO). `id` is always null, as the seed says: an activity's id is in its session's `activiteIds`, in `/athletes/athletes/session/{id}/activities`, and in the `Location` of its create. `sessionId` is null once its session dropped it.",
  [{ id: null, name: "Sprint intervals", theme: "cardio", duree: 20, dataActivite: ["6 x 200 m"], sessionId: 7 }]
)
export type ActiviteDto = typeof ActiviteDto.Type

export const SessionDto = documented(
  Schema.Struct({
    id: SessionId,
    name: Schema.NullOr(Schema.String),
    isRecurrent: Schema.NullOr(Schema.Boolean),
    creneau: Schema.NullOr(LocalDateTime),
    duree: Schema.NullOr(Schema.Int),
    groupe: Schema.NullOr(Schema.String),
    coachId: Schema.NullOr(CoachId),
    athleteIds: Schema.Array(AthleteId),
    activiteIds: Schema.Array(ActivityId)
  }),
  "Session",
  "A training session (the seed's SessionDTO): its coach, athletes and activities by id. `creneau` is a local date-time without offset (the club's wall clock).",
  [{
    id: 7,
    name: "Tuesday track",
    isRecurrent: true,
    creneau: "2026-11-24T18:30:00",
    duree: 90,
    groupe: "Seniors",
    coachId: 2,
    athleteIds: [3, 4],
    activiteIds: [12]
  }]
)
export type SessionDto = typeof SessionDto.Type

export const CoachDto = documented(
  Schema.Struct({ id: CoachId, name: Schema.NullOr(Schema.String) }),
  "Coach",
  "A coach (the seed's CoachDTO).",
  [{ id: 2, name: "Camille Durand" }]
)
export type CoachDto = typeof CoachDto.Type

export const AdminDto = documented(
  Schema.Struct({ id: AdminId, name: Schema.NullOr(Schema.String) }),
  "Admin",
  "An admin record (AdminDTO), which an ADMIN user is linked to.",
  [{ id: 1, name: "Dominique Admin" }]
)
export type AdminDto = typeof AdminDto.Type

/** The three roles, as every answer spells them. */
const Role = documented(CoreRole, "Role", "A user's role: what it may do is given on each operation.")

export const UserDto = documented(
  Schema.Struct({
    id: UserId,
    name: Schema.String,
    email: Schema.NullOr(Schema.String),
    role: Role
  }),
  "User",
  "A user who can log in (UserDTO). The password is never part of it.",
  [{ id: 4, name: "camille", email: "camille@club.example", role: "COACH" }]
)
export type UserDto = typeof UserDto.Type

/** `{id, name}` of a session, as the athlete-session queries answer. */
export const SessionSummaryDto = documented(
  Schema.Struct({ id: SessionId, name: Schema.NullOr(Schema.String) }),
  "SessionSummary",
  "A session's id and name (the seed's session summary).",
  [{ id: 7, name: "Tuesday track" }]
)
export type SessionSummaryDto = typeof SessionSummaryDto.Type

/** `{id, name}` of an activity, as the activities-of-a-session query answers. */
export const ActivitySummaryDto = documented(
  Schema.Struct({ id: ActivityId, name: Schema.NullOr(Schema.String) }),
  "ActivitySummary",
  "An activity's id and name (the seed's activity summary).",
  [{ id: 12, name: "Sprint intervals" }]
)
export type ActivitySummaryDto = typeof ActivitySummaryDto.Type

export const LoginDto = documented(
  Schema.Struct({
    token: Schema.String,
    tokenType: Schema.Literal("Bearer"),
    expiresIn: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
    user: UserDto
  }),
  "Login",
  "A bearer token for `Authorization: Bearer <token>`, valid for `expiresIn` seconds, and the user it was issued to.",
  [{
    token:
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0Iiwicm9sZSI6IkNPQUNIIiwiaWF0IjoxNzk1NDk4MDAwLCJleHAiOjE3OTU1MDE2MDB9.c2lnbmF0dXJl",
    tokenType: "Bearer",
    expiresIn: 3600,
    user: { id: 4, name: "camille", email: "camille@club.example", role: "COACH" }
  }]
)
export type LoginDto = typeof LoginDto.Type

export const HealthDto = documented(
  Schema.Struct({ status: Schema.Literals(["ok", "ready"]) }),
  "Health",
  "`ok` from `/health/live`, `ready` from `/health/ready`.",
  [{ status: "ready" }]
)
