import { Schema, Struct } from "effect"
import {
  Activity,
  AdminTable,
  ActivityWrite,
  ActivitySummary,
  Athlete,
  AthleteCreate,
  AthleteId,
  AthleteUpdate,
  BoundedArray,
  CoachTable,
  Group,
  isMaxCharacters,
  Limits,
  Reaches,
  Role as CoreRole,
  RoleFromAnyCase,
  Session,
  SessionCreate,
  SessionId,
  SessionSummary,
  ShortText,
  User,
  UserCreate,
  UserUpdate
} from "@club/core"
import { documented } from "./documented.ts"
import { recordDtos } from "../records/RecordDtos.ts"
import { seedFields } from "./SeedInput.ts"

/** Absent and null mean the same on input: nothing given. For the seed's fields that core does not take. */
const optional = <S extends Schema.Top>(schema: S) => Schema.optional(Schema.NullOr(schema))

// ---- Inputs: core's input classes in the seed's wire form (`seedFields`), plus the fields the seed
// accepts and ignores. Handlers turn a decoded body back into core's class with `toCoreInput`.

export const ActivityInput = documented(
  Schema.Struct({
    /** Ignored, as the seed says: activity ids are generated. */
    id: optional(Schema.Finite),
    ...seedFields(ActivityWrite.fields)
  }),
  "ActivityInput",
  "The body of an activity create or update (the seed's ActiviteDTO). `sessionId` is required and must name an existing session; `id` is ignored. On update a null or absent `duree` is stored as 0; on create it stays null.",
  [{ name: "Sprint intervals", theme: "cardio", duree: 20, dataActivite: ["6 x 200 m"], sessionId: 7 }]
)

/**
 * The body of an athlete update, which ignores `id` (it may hold any id, e.g. the DTO read back).
 * The create body is the same, except that a supplied `id` is bounded as core's create input
 * bounds it.
 */
const athleteFields = {
  ...seedFields(AthleteCreate.fields),
  id: optional(AthleteId),
  /** Accepted and not stored: the athlete endpoints always answer `[]`. */
  groupes: optional(BoundedArray(ShortText)),
  ...seedFields(AthleteUpdate.fields),
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
  Schema.Struct({ ...athleteFields, id: seedFields(AthleteCreate.fields).id }),
  "AthleteCreate",
  "The body of an athlete create (the seed's AthleteDTO). `name`, `categorie` and `niveau` are stored. A supplied `id` (at most 2147483647) becomes the new athlete's id (409 when taken); without one the id is generated. `groupes`, `sessionIds` and `userId` are accepted and ignored.",
  [{ name: "Alex Martin", categorie: "Senior", niveau: "Regional" }]
)

/** A coach's answer and bodies (the seed's CoachDTO). */
export const { answer: CoachDto, create: CoachCreateInput, update: CoachInput } = recordDtos(CoachTable, {
  answer: "A coach (the seed's CoachDTO).",
  create:
    "The body of a coach create (the seed's CoachDTO). A supplied `id` (at most 2147483647) becomes the new coach's id (409 when taken); without one the id is generated.",
  update:
    "The body of a coach update (the seed's CoachDTO): `name` replaces the stored one when present and not null; `id` is ignored."
})
export type CoachDto = typeof CoachDto.Type

/** An admin record's answer and bodies (AdminDTO). */
export const { answer: AdminDto, create: AdminCreateInput, update: AdminInput } = recordDtos(AdminTable, {
  answer: "An admin record (AdminDTO), which an ADMIN user is linked to.",
  create:
    "The body of an admin create (AdminDTO). A supplied `id` (at most 2147483647) becomes the new admin record's id (409 when taken); without one the id is generated.",
  update:
    "The body of an admin update (AdminDTO): `name` replaces the stored one when present and not null; `id` is ignored."
})
export type AdminDto = typeof AdminDto.Type

export const SessionInput = documented(
  Schema.Struct({ ...seedFields(SessionCreate.fields), id: optional(SessionId) }),
  "SessionUpdate",
  "The body of a session update (the seed's SessionDTO). Every field is checked, but only `duree`, `athleteIds` and `activiteIds` are applied, each only when present: activities listed move into the session, and the session's activities no longer listed are detached (their `sessionId` becomes null). Unknown athlete or activity ids: 400, nothing changed.",
  [{ duree: 75, athleteIds: [3, 4], activiteIds: [12] }]
)

/** The values of the session every example of the document shows (its create body and its answer). */
const sessionValuesExample = {
  name: "Tuesday track",
  isRecurrent: true,
  creneau: "2026-11-24T18:30:00",
  duree: 90,
  groupe: "Seniors",
  coachId: 2
} as const

export const SessionCreateInput = documented(
  Schema.Struct(seedFields(SessionCreate.fields)),
  "SessionCreate",
  "The body of a session create (the seed's SessionDTO). `athleteIds` and `activiteIds` must all exist, and `coachId` when given; the activities listed move into the new session. A supplied `id` (at most 2147483647) becomes the session's id (400 when taken); without one the id is generated.",
  [{ ...sessionValuesExample, athleteIds: [3, 4], activiteIds: [] }]
)

export const UserCreateInput = documented(
  Schema.Struct({ ...seedFields(UserCreate.fields), role: RoleFromAnyCase }),
  "UserCreate",
  "The body of a user create. The user is linked to the record of its role named by `coachId`, `athleteId` or `adminId` (at most one, of the role's kind, not linked to another user), or, when none is given, to a new record of that kind named after the user. `name` is unique among users (409).",
  [{ name: "camille", email: "camille@club.example", role: "COACH", password: "correct horse battery", coachId: 2 }]
)

/** `email: null` clears the e-mail address; a null link counts as absent. */
export const UserUpdateInput = documented(
  Schema.Struct({ ...seedFields(UserUpdate.fields), role: Schema.optionalKey(RoleFromAnyCase) }),
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

// ---- Outputs: core's records as the seed's answers show them, quirks included. Where no quirk
// applies, the answer is the record itself.

/** Always `[]` in the seed's athlete answers. */
const alwaysEmpty = <S extends Schema.Top>(item: S) => Schema.Array(item).check(Schema.isMaxLength(0))

/** The seed's athlete endpoints fill only the athlete's own fields. */
export const AthleteDto = documented(
  Schema.Struct({
    ...Athlete.fields,
    groupes: alwaysEmpty(Schema.String),
    sessionIds: alwaysEmpty(SessionId),
    userId: Schema.Null
  }),
  "Athlete",
  "An athlete (the seed's AthleteDTO). As the seed says, the athlete endpoints fill only `id`, `name`, `categorie` and `niveau`: `groupes` and `sessionIds` are always empty and `userId` is always null (an athlete's sessions are at `/athletes/athlete/{id}/session`).",
  [{ id: 3, name: "Alex Martin", categorie: "Senior", niveau: "Regional", groupes: [], sessionIds: [], userId: null }]
)
export type AthleteDto = typeof AthleteDto.Type

/**
 * An athlete as its endpoints answer: the seed's empty `groupes` and `sessionIds`, and a null
 * `userId`. Written field by field, not spread: a record read from a row has its class's prototype,
 * and V8 copies only plain objects by spread quickly, so a spread was most of this copy's cost on a
 * listing (README, Performance). A field added to `Athlete` is a field `AthleteDto` requires, so
 * leaving it out here does not compile.
 */
export const toAthleteDto = ({ categorie, id, name, niveau }: Athlete): AthleteDto => ({
  id,
  name,
  categorie,
  niveau,
  groupes: [],
  sessionIds: [],
  userId: null
})

/** The seed's activity endpoints answer `id: null`; the ids are in a session's `activiteIds`. */
export const ActivityDto = documented(
  Schema.Struct({ ...Activity.fields, id: Schema.Null }),
  "Activity",
  "An activity of a session (the seed's ActiviteDTO). `id` is always null, as the seed says: an activity's id is in its session's `activiteIds`, in `/athletes/athletes/session/{id}/activities`, and in the `Location` of its create. `sessionId` is null once its session dropped it.",
  [{ id: null, name: "Sprint intervals", theme: "cardio", duree: 20, dataActivite: ["6 x 200 m"], sessionId: 7 }]
)
export type ActivityDto = typeof ActivityDto.Type

/** An activity as its endpoints answer: `id` null. Field by field, as `toAthleteDto` and for its reason. */
export const toActivityDto = ({ dataActivite, duree, name, sessionId, theme }: Activity): ActivityDto => ({
  id: null,
  name,
  theme,
  duree,
  dataActivite,
  sessionId
})

/** The session every example of the document shows. */
export const sessionExample = {
  id: 7,
  ...sessionValuesExample,
  athleteIds: [3, 4],
  activiteIds: [12]
} as const

export const SessionDto = documented(
  Schema.Struct(Session.fields),
  "Session",
  "A training session (the seed's SessionDTO): its coach, athletes and activities by id. `creneau` is a local date-time without offset (the club's wall clock).",
  [sessionExample]
)
export type SessionDto = typeof SessionDto.Type

/** The three roles, as every answer spells them. */
const Role = documented(CoreRole, "Role", "A user's role: what it may do is given on each operation.")

/** A user without its links: the answer leaves out the fields of `User` it does not list. */
export const UserDto = documented(
  Schema.Struct({
    ...Struct.pick(User.fields, ["id", "name", "email"]),
    role: Role,
    ...Struct.pick(User.fields, ["coachId", "athleteId", "adminId"])
  }),
  "User",
  "A user who can log in (UserDTO), with the record it is linked to: `coachId` for a COACH, `athleteId` for an ATHLETE, `adminId` for an ADMIN (the others null). The password is never part of it.",
  [{ id: 4, name: "camille", email: "camille@club.example", role: "COACH", coachId: 2, athleteId: null, adminId: null }]
)
export type UserDto = typeof UserDto.Type

/** `GET /auth/me`: the caller's user, its linked record, and what its role may do. */
export const MeDto = documented(
  Schema.Struct({
    ...UserDto.fields,
    rules: Schema.Record(Schema.String, Schema.Literals(Reaches)),
    guardedAthleteIds: Schema.Array(AthleteId).annotate({
      description:
        "The athletes the caller answers for as their guardian (`/guardians`), by id: the caller replies for each. Empty for most users."
    }),
    groups: Schema.Array(Schema.Struct(Group.fields)).annotate({
      description:
        "The caller's groups (issue 41), in id order, at most 200: for a COACH the groups it coaches, for an ATHLETE user the groups its athlete is a member of on the club's today; empty for others."
    })
  }),
  "Me",
  "The caller's user (with the record it is linked to) and its role's rules: each operation it may call (the rule names of the operations' descriptions), with how far it reaches: `any` record, only those it `coached` (a coach's own sessions and series, and those of no coach), only its `own` (its athlete record, or its user), or only `handOver` (change a record's coach and nothing else). An operation it may not call is absent. `guardedAthleteIds`: the athletes it answers for as a guardian.",
  [{
    id: 4,
    name: "camille",
    email: "camille@club.example",
    role: "COACH",
    coachId: 2,
    athleteId: null,
    adminId: null,
    rules: { "session.update": "any", "plannedSession.update": "coached", "user.read": "own" },
    guardedAthleteIds: [],
    groups: [{ id: 2, name: "U12", parentId: 1, coachIds: [2] }]
  }]
)
export type MeDto = typeof MeDto.Type

/** `{id, name}` of a session, as the athlete-session queries answer. */
export const SessionSummaryDto = documented(
  Schema.Struct(SessionSummary.fields),
  "SessionSummary",
  "A session's id and name (the seed's session summary).",
  [{ id: 7, name: "Tuesday track" }]
)
export type SessionSummaryDto = typeof SessionSummaryDto.Type

/** `{id, name}` of an activity, as the activities-of-a-session query answers. */
export const ActivitySummaryDto = documented(
  Schema.Struct(ActivitySummary.fields),
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
    user: {
      id: 4,
      name: "camille",
      email: "camille@club.example",
      role: "COACH",
      coachId: 2,
      athleteId: null,
      adminId: null
    }
  }]
)
export type LoginDto = typeof LoginDto.Type

export const HealthDto = documented(
  Schema.Struct({ status: Schema.Literals(["ok", "ready"]) }),
  "Health",
  "`ok` from `/health/live`, `ready` from `/health/ready`.",
  [{ status: "ready" }]
)
