import { ActivityId, AdminId, AthleteId, CalendarDate, CoachId, SessionId, ShortText, UserId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ActivityCreatedWithLocation } from "./ActivityCreated.ts"
import { Authentication } from "./Authentication.ts"
import {
  ActiviteDto,
  ActiviteInput,
  AdminCreateInput,
  AdminDto,
  AdminInput,
  AthleteCreateInput,
  AthleteDto,
  AthleteInput,
  CoachCreateInput,
  CoachDto,
  CoachInput,
  HealthDto,
  LoginDto,
  LoginInput,
  SessionCreateInput,
  SessionDto,
  SessionInput,
  ActivitySummaryDto,
  SessionSummaryDto,
  UserCreateInput,
  UserDto,
  UserUpdateInput
} from "./Dto.ts"
import {
  Conflict,
  Forbidden,
  InvalidRequest,
  NotFound,
  TooManyRequestsWithRetryAfter,
  Unauthorized,
  Unavailable
} from "./Problems.ts"
import { RawInput } from "./RawInput.ts"
import { pathId } from "./PathId.ts"
import { Idempotency } from "./Idempotency.ts"
import { InputFailure } from "./RequestErrors.ts"
import { RequiredOperation } from "./RequiredOperation.ts"
import {
  ActivityFailedText,
  AthleteUpdateFailedBody,
  NotFoundEmptyBody,
  SessionCreateFailedText,
  SessionNotFoundTextBody
} from "./SeedFailures.ts"

const text = (status: number) => Schema.String.pipe(HttpApiSchema.asText(), HttpApiSchema.status(status))
const created = <S extends Schema.Top>(schema: S) => schema.pipe(HttpApiSchema.status(201))

export class HealthGroup extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("live", "/health/live", { success: HealthDto }),
  HttpApiEndpoint.get("ready", "/health/ready", { success: HealthDto, error: Unavailable })
) {}

export class AuthGroup extends HttpApiGroup.make("auth").add(
  HttpApiEndpoint.get("me", "/auth/me", { success: UserDto, error: [NotFound, Forbidden] })
    .annotate(RequiredOperation, "auth.me")
).middleware(Authentication).add(
  HttpApiEndpoint.post("login", "/auth/login", {
    payload: LoginInput,
    success: LoginDto,
    error: [Unauthorized, TooManyRequestsWithRetryAfter]
  })
).middleware(RawInput) {}

export class ActivitiesGroup extends HttpApiGroup.make("activities").add(
  HttpApiEndpoint.post("create", "/activite/create", {
    payload: ActiviteInput,
    success: ActivityCreatedWithLocation,
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotate(RequiredOperation, "activity.create").middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/activite/delete/:id", {
    params: { id: pathId(ActivityId) },
    success: text(200),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotate(RequiredOperation, "activity.delete").middleware(Idempotency),
  HttpApiEndpoint.post("update", "/activite/update/:id", {
    params: { id: pathId(ActivityId) },
    payload: ActiviteInput,
    success: text(200),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotate(RequiredOperation, "activity.update").middleware(Idempotency),
  HttpApiEndpoint.get("all", "/activite/all", { success: Schema.Array(ActiviteDto), error: [NotFoundEmptyBody, Forbidden] })
    .annotate(RequiredOperation, "activity.read"),
  HttpApiEndpoint.get("byTheme", "/activite/theme/:theme", {
    params: { theme: ShortText },
    success: Schema.Array(ActiviteDto),
    error: [NotFoundEmptyBody, Forbidden]
  }).annotate(RequiredOperation, "activity.read"),
  HttpApiEndpoint.get("get", "/activite/:id", {
    params: { id: pathId(ActivityId) },
    success: ActiviteDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotate(RequiredOperation, "activity.read")
).middleware(RawInput).middleware(Authentication) {}

export class AthletesGroup extends HttpApiGroup.make("athletes").add(
  HttpApiEndpoint.post("create", "/athletes/create", {
    payload: AthleteCreateInput,
    success: created(AthleteDto),
    error: [Conflict, Forbidden]
  }).annotate(RequiredOperation, "athlete.create").middleware(Idempotency),
  HttpApiEndpoint.post("all", "/athletes/all", { success: Schema.Array(AthleteDto), error: Forbidden })
    .annotate(RequiredOperation, "athlete.list"),
  HttpApiEndpoint.get("get", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: AthleteDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotate(RequiredOperation, "athlete.read"),
  HttpApiEndpoint.put("update", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    payload: AthleteInput,
    success: AthleteDto,
    error: [AthleteUpdateFailedBody, Forbidden]
  }).annotate(InputFailure, "emptyNoContent").annotate(RequiredOperation, "athlete.update").middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: HttpApiSchema.NoContent,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotate(RequiredOperation, "athlete.delete").middleware(Idempotency)
).middleware(RawInput).middleware(Authentication) {}

/** The seed's session queries under the athlete prefix: any authenticated caller. */
export class ScheduleGroup extends HttpApiGroup.make("schedule").add(
  HttpApiEndpoint.get("sessionsOfAthlete", "/athletes/athlete/:id/session", {
    params: { id: pathId(AthleteId) },
    success: Schema.Array(SessionSummaryDto),
    error: Forbidden
  }).annotate(RequiredOperation, "schedule.read"),
  HttpApiEndpoint.get("allSessions", "/athletes/athletes/session", { success: Schema.Array(SessionSummaryDto), error: Forbidden })
    .annotate(RequiredOperation, "schedule.read"),
  HttpApiEndpoint.get("activitiesOfSession", "/athletes/athletes/session/:id/activities", {
    params: { id: pathId(SessionId) },
    success: Schema.Array(ActivitySummaryDto),
    error: Forbidden
  }).annotate(RequiredOperation, "schedule.read"),
  HttpApiEndpoint.get("sessionsAfter", "/athletes/athletes/:id/session/after/:date", {
    params: { id: pathId(AthleteId), date: CalendarDate },
    success: Schema.Array(SessionSummaryDto),
    error: Forbidden
  }).annotate(RequiredOperation, "schedule.read"),
  HttpApiEndpoint.get("sessionsBetween", "/athletes/athletes/:id/session/between/:startDate/:endDate", {
    params: { id: pathId(AthleteId), startDate: CalendarDate, endDate: CalendarDate },
    success: Schema.Array(SessionSummaryDto),
    error: Forbidden
  }).annotate(RequiredOperation, "schedule.read")
).middleware(RawInput).middleware(Authentication) {}

export class SessionsGroup extends HttpApiGroup.make("sessions").add(
  HttpApiEndpoint.post("create", "/session/create", {
    payload: SessionCreateInput,
    success: created(SessionDto),
    error: [SessionCreateFailedText, Forbidden]
  }).annotate(InputFailure, "badRequestText").annotate(RequiredOperation, "session.create").middleware(Idempotency),
  HttpApiEndpoint.get("all", "/session/all", { success: Schema.Array(SessionDto), error: Forbidden })
    .annotate(RequiredOperation, "session.read"),
  HttpApiEndpoint.get("get", "/session/:id", {
    params: { id: pathId(SessionId) },
    success: SessionDto,
    error: [SessionNotFoundTextBody, Forbidden]
  }).annotate(RequiredOperation, "session.read"),
  HttpApiEndpoint.delete("delete", "/session/delete/:id", {
    params: { id: pathId(SessionId) },
    success: text(200),
    error: [SessionNotFoundTextBody, Forbidden]
  }).annotate(RequiredOperation, "session.delete").middleware(Idempotency),
  HttpApiEndpoint.put("update", "/session/update/:id", {
    params: { id: pathId(SessionId) },
    payload: SessionInput,
    success: HttpApiSchema.NoContent,
    error: [NotFound, InvalidRequest, Forbidden]
  }).annotate(RequiredOperation, "session.update").middleware(Idempotency)
).middleware(RawInput).middleware(Authentication) {}

const coachEndpoints = <const Name extends string>(name: Name, prefix: "" | "/coaches") =>
  HttpApiGroup.make(name).add(
    HttpApiEndpoint.post("create", `${prefix}/create`, {
      payload: CoachCreateInput,
      success: created(CoachDto),
      error: [Conflict, Forbidden]
    }).annotate(RequiredOperation, "coach.create").middleware(Idempotency),
    HttpApiEndpoint.get("all", `${prefix}/all`, { success: Schema.Array(CoachDto), error: Forbidden })
      .annotate(RequiredOperation, "coach.read"),
    HttpApiEndpoint.get("get", `${prefix}/:id`, { params: { id: pathId(CoachId) }, success: CoachDto, error: [NotFound, Forbidden] })
      .annotate(RequiredOperation, "coach.read"),
    HttpApiEndpoint.put("update", `${prefix}/update/:id`, {
      params: { id: pathId(CoachId) },
      payload: CoachInput,
      success: CoachDto,
      error: [NotFound, Forbidden]
    }).annotate(RequiredOperation, "coach.update").middleware(Idempotency),
    HttpApiEndpoint.delete("delete", `${prefix}/delete/:id`, {
      params: { id: pathId(CoachId) },
      success: HttpApiSchema.NoContent,
      error: [NotFound, Conflict, Forbidden]
    }).annotate(RequiredOperation, "coach.delete").middleware(Idempotency)
  ).middleware(RawInput).middleware(Authentication)

/** The seed gives the coach paths without a prefix; CONTRACT.md serves them there and under `/coaches`. */
export class CoachesGroup extends coachEndpoints("coaches", "/coaches") {}
export class RootCoachesGroup extends coachEndpoints("rootCoaches", "") {}

export class UsersGroup extends HttpApiGroup.make("users").add(
  HttpApiEndpoint.post("create", "/users/create", {
    payload: UserCreateInput,
    success: created(UserDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotate(RequiredOperation, "user.create").middleware(Idempotency),
  HttpApiEndpoint.get("all", "/users/all", { success: Schema.Array(UserDto), error: Forbidden })
    .annotate(RequiredOperation, "user.list"),
  HttpApiEndpoint.get("get", "/users/:id", { params: { id: pathId(UserId) }, success: UserDto, error: [NotFound, Forbidden] })
    .annotate(RequiredOperation, "user.read"),
  HttpApiEndpoint.put("update", "/users/update/:id", {
    params: { id: pathId(UserId) },
    payload: UserUpdateInput,
    success: UserDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotate(RequiredOperation, "user.update").middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/users/delete/:id", {
    params: { id: pathId(UserId) },
    success: HttpApiSchema.NoContent,
    error: [NotFound, Conflict, Forbidden]
  }).annotate(RequiredOperation, "user.delete").middleware(Idempotency)
).middleware(RawInput).middleware(Authentication) {}

export class AdminsGroup extends HttpApiGroup.make("admins").add(
  HttpApiEndpoint.post("create", "/admins/create", {
    payload: AdminCreateInput,
    success: created(AdminDto),
    error: [Conflict, Forbidden]
  }).annotate(RequiredOperation, "admin.create").middleware(Idempotency),
  HttpApiEndpoint.get("all", "/admins/all", { success: Schema.Array(AdminDto), error: Forbidden })
    .annotate(RequiredOperation, "admin.read"),
  HttpApiEndpoint.get("get", "/admins/:id", { params: { id: pathId(AdminId) }, success: AdminDto, error: [NotFound, Forbidden] })
    .annotate(RequiredOperation, "admin.read"),
  HttpApiEndpoint.put("update", "/admins/update/:id", {
    params: { id: pathId(AdminId) },
    payload: AdminInput,
    success: AdminDto,
    error: [NotFound, Forbidden]
  }).annotate(RequiredOperation, "admin.update").middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/admins/delete/:id", {
    params: { id: pathId(AdminId) },
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(RequiredOperation, "admin.delete").middleware(Idempotency)
).middleware(RawInput).middleware(Authentication) {}
