import { ActivityId, AdminTable, AthleteId, CalendarDate, CoachTable, SessionId, ShortText, UserId } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ActivityCreatedWithLocation } from "./ActivityCreated.ts"
import { Authentication } from "./Authentication.ts"
import { created, idempotent, listOf, noContent, tag, text } from "./EndpointParts.ts"
import {
  ActivityDto,
  ActivityInput,
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
  MeDto,
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
import { recordEndpoints } from "./RecordGroup.ts"
import { operation } from "./Operation.ts"
import { Paged } from "./Paged.ts"
import { pathId } from "./PathId.ts"
import { Idempotency } from "./Idempotency.ts"
import { InputFailure } from "./RequestErrors.ts"
import {
  ActivityFailedText,
  AthleteUpdateFailedBody,
  NotFoundEmptyBody,
  SessionCreateFailedText,
  SessionNotFoundTextBody
} from "./SeedFailures.ts"

export class HealthGroup extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("live", "/health/live", { success: HealthDto })
    .annotateMerge(
      operation(
        "Liveness",
        "Answers `{\"status\":\"ok\"}` while the process serves requests, whether or not its database answers."
      )
    ),
  HttpApiEndpoint.get("ready", "/health/ready", { success: HealthDto, error: Unavailable })
    .annotateMerge(
      operation(
        "Readiness",
        "Answers `{\"status\":\"ready\"}` when the service can serve requests, 503 while its database is unreachable."
      )
    )
).annotateMerge(
  tag("Health", "Liveness and readiness probes, for load balancers and orchestrators. No token needed.")
) {}

export class AuthGroup extends HttpApiGroup.make("auth").add(
  HttpApiEndpoint.get("me", "/auth/me", { success: MeDto, error: [NotFound, Forbidden] })
    .annotateMerge(
      operation(
        "The caller's user and rules",
        "The user the bearer token was issued to, the coach, athlete or admin record it is linked to, and the rules of its role: every operation it may call, with how far it reaches.",
        "auth.me"
      )
    )
).middleware(Authentication).add(
  HttpApiEndpoint.post("login", "/auth/login", {
    payload: LoginInput,
    success: LoginDto,
    error: [Unauthorized, TooManyRequestsWithRetryAfter]
  }).annotateMerge(operation(
    "Log in",
    "Exchanges a user's name and password for a bearer token. A wrong name or a wrong password get the same 401. Repeated failures for a name from one address, or from one address, make further attempts from there wait (429 with `Retry-After`); a user who knows the password is never locked out from elsewhere."
  ))
).middleware(RawInput).annotateMerge(
  tag("Authentication", "Log in for a bearer token, and read the user a token was issued to.")
) {}

export class ActivitiesGroup extends HttpApiGroup.make("activities").add(
  HttpApiEndpoint.post("create", "/activite/create", {
    payload: ActivityInput,
    success: ActivityCreatedWithLocation,
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Create an activity",
    `Creates an activity in the session \`sessionId\` names; \`Location\` gives its path, and so its id. Any failure (bad input, an unknown session) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/activite/delete/:id", {
    params: { id: pathId(ActivityId) },
    success: text(200, "Activity deleted", "Deleted (the seed's plain text)."),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Delete an activity",
    `Any failure (an unknown activity, a malformed id) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.delete"
  )).middleware(Idempotency),
  HttpApiEndpoint.post("update", "/activite/update/:id", {
    params: { id: pathId(ActivityId) },
    payload: ActivityInput,
    success: text(200, "Activity modified", "Modified (the seed's plain text)."),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Update an activity",
    `Replaces the activity's name, theme, duree (null or absent: 0), dataActivite and session (\`sessionId\`). Any failure (bad input, an unknown activity or session) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("all", "/activite/all", {
    success: listOf(ActivityDto, "Every activity."),
    error: [NotFoundEmptyBody, Forbidden]
  }).middleware(Paged).annotateMerge(
    operation("List activities", "Every activity. A failure to read them is the seed's empty 404.", "activity.read")
  ),
  HttpApiEndpoint.get("byTheme", "/activite/theme/:theme", {
    params: { theme: ShortText.annotate({ description: "The theme, matched exactly.", examples: ["cardio"] }) },
    success: listOf(ActivityDto, "The activities of this theme; empty when none."),
    error: [NotFoundEmptyBody, Forbidden]
  }).middleware(Paged).annotateMerge(
    operation(
      "List activities by theme",
      "The activities whose theme equals the path value exactly (an empty list when none).",
      "activity.read"
    )
  ),
  HttpApiEndpoint.get("get", "/activite/:id", {
    params: { id: pathId(ActivityId) },
    success: ActivityDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation(
      "Read an activity",
      "The activity with this id (its `id` member is null, as the seed says); the seed's empty 404 when there is none.",
      "activity.read"
    )
  )
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Activities",
  "The activities of sessions (the seed's ActiviteDTO). Their writes answer the seed's plain texts, and any of their failures the seed's 500 `Error: ...`; their reads answer an empty 404."
)) {}

export class AthletesGroup extends HttpApiGroup.make("athletes").add(
  HttpApiEndpoint.post("create", "/athletes/create", {
    payload: AthleteCreateInput,
    success: created(AthleteDto),
    error: [Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create an athlete",
    `Stores name, categorie and niveau; a supplied \`id\` becomes the athlete's id (409 when taken). ${idempotent}`,
    "athlete.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.post("all", "/athletes/all", {
    success: listOf(AthleteDto, "Every athlete."),
    error: Forbidden
  }).middleware(Paged)
    .annotateMerge(
      operation(
        "List athletes",
        "Every athlete. A POST that only reads, as the seed spells it; it takes no body.",
        "athlete.list"
      )
    ),
  HttpApiEndpoint.get("get", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: AthleteDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation("Read an athlete", "The athlete with this id; the seed's empty 404 when there is none.", "athlete.read")
  ),
  HttpApiEndpoint.put("update", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    payload: AthleteInput,
    success: AthleteDto,
    error: [AthleteUpdateFailedBody, Forbidden]
  }).annotate(InputFailure, "emptyNoContent").annotateMerge(operation(
    "Update an athlete",
    `Replaces name, categorie and niveau, and, when \`sessionIds\` is present, the athlete's sessions. Any failure (an unknown athlete or session id, bad input) is the seed's 204 with an empty body, and changes nothing. ${idempotent}`,
    "athlete.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: noContent("Deleted, with the athlete's session memberships and any user link to it."),
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation(
      "Delete an athlete",
      `The seed's empty 404 when there is no such athlete. ${idempotent}`,
      "athlete.delete"
    )
  )
    .middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Athletes",
  "Athletes (the seed's AthleteDTO). As the seed says, their answers fill only id, name, categorie and niveau."
)) {}

const athleteIdParameter = pathId(AthleteId)

/** The seed's session queries under the athlete prefix: any authenticated caller. */
export class ScheduleGroup extends HttpApiGroup.make("schedule").add(
  HttpApiEndpoint.get("sessionsOfAthlete", "/athletes/athlete/:id/session", {
    params: { id: athleteIdParameter },
    success: listOf(SessionSummaryDto, "The athlete's sessions; empty for an unknown athlete."),
    error: Forbidden
  }).middleware(Paged).annotateMerge(
    operation(
      "Sessions of an athlete",
      "The sessions the athlete takes part in (an empty list for an unknown athlete).",
      "schedule.read"
    )
  ),
  HttpApiEndpoint.get("allSessions", "/athletes/athletes/session", {
    success: listOf(SessionSummaryDto, "Every session."),
    error: Forbidden
  }).middleware(Paged).annotateMerge(
    operation("All sessions, in summary", "Every session, as `{id, name}`.", "schedule.read")
  ),
  HttpApiEndpoint.get("activitiesOfSession", "/athletes/athletes/session/:id/activities", {
    params: { id: pathId(SessionId) },
    success: listOf(ActivitySummaryDto, "The session's activities; empty for an unknown session."),
    error: Forbidden
  }).middleware(Paged).annotateMerge(
    operation(
      "Activities of a session",
      "The session's activities as `{id, name}` (an empty list for an unknown session).",
      "schedule.read"
    )
  ),
  HttpApiEndpoint.get("sessionsAfter", "/athletes/athletes/:id/session/after/:date", {
    params: { id: athleteIdParameter, date: CalendarDate.annotate({ examples: ["2026-11-21" as CalendarDate] }) },
    success: listOf(SessionSummaryDto, "The athlete's sessions after the date; empty for an unknown athlete."),
    error: Forbidden
  }).middleware(Paged).annotateMerge(operation(
    "Sessions of an athlete after a date",
    "The athlete's sessions whose `creneau` is strictly after the start (00:00) of `{date}` (an empty list for an unknown athlete). A date that does not parse: 400 naming it.",
    "schedule.read"
  )),
  HttpApiEndpoint.get("sessionsBetween", "/athletes/athletes/:id/session/between/:startDate/:endDate", {
    params: { id: athleteIdParameter, startDate: CalendarDate, endDate: CalendarDate },
    success: listOf(SessionSummaryDto, "The athlete's sessions between the dates; empty for an unknown athlete."),
    error: Forbidden
  }).middleware(Paged).annotateMerge(operation(
    "Sessions of an athlete between two dates",
    "The athlete's sessions whose `creneau` is strictly after the start of `{startDate}` and strictly before the start of `{endDate}` (an empty list for an unknown athlete). A date that does not parse: 400 naming it.",
    "schedule.read"
  ))
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Schedules",
  "The seed's session and activity queries under `/athletes`, open to any authenticated user. Unknown ids answer an empty list."
)) {}

export class SessionsGroup extends HttpApiGroup.make("sessions").add(
  HttpApiEndpoint.post("create", "/session/create", {
    payload: SessionCreateInput,
    success: created(SessionDto),
    error: [SessionCreateFailedText, Forbidden]
  }).annotate(InputFailure, "badRequestText").annotateMerge(operation(
    "Create a session",
    `Creates a session with its coach, athletes and activities (the activities listed move into it). Any failure (bad input, unknown ids, a supplied id taken) is the seed's 400 \`text/plain\` message naming what was wrong; nothing is written. With the club setting SCHEDULE_SEED_REFUSES_CONFLICTS, the session books its coach and athletes, and a double booking is such a failure too (\`Double booking: ... in session <ids>\`). ${idempotent}`,
    "session.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("all", "/session/all", {
    success: listOf(SessionDto, "Every session, in id order."),
    error: Forbidden
  }).middleware(Paged)
    .annotateMerge(
      operation("List sessions", "Every session, in id order, streamed as one JSON array.", "session.read")
    ),
  HttpApiEndpoint.get("get", "/session/:id", {
    params: { id: pathId(SessionId) },
    success: SessionDto,
    error: [SessionNotFoundTextBody, Forbidden]
  }).annotateMerge(
    operation(
      "Read a session",
      "The session with this id; the seed's 404 `text/plain` message when there is none.",
      "session.read"
    )
  ),
  HttpApiEndpoint.delete("delete", "/session/delete/:id", {
    params: { id: pathId(SessionId) },
    success: text(
      200,
      "Session deleted successfully",
      "Deleted, with its activities and athlete memberships (the seed's plain text)."
    ),
    error: [SessionNotFoundTextBody, Forbidden]
  }).annotateMerge(operation(
    "Delete a session",
    `Deletes the session, its activities and its athlete memberships; the seed's 404 \`text/plain\` message when there is no such session. ${idempotent}`,
    "session.delete"
  )).middleware(Idempotency),
  HttpApiEndpoint.put("update", "/session/update/:id", {
    params: { id: pathId(SessionId) },
    payload: SessionInput,
    success: noContent("Updated."),
    error: [NotFound, InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Update a session",
    `Applies \`duree\`, \`athleteIds\` and \`activiteIds\`, each only when present, at once; other fields are checked and ignored, as the seed says. 404 \`Session not found with id <id>\`; unknown athlete or activity ids: 400 naming them, nothing changed. With the club setting SCHEDULE_SEED_REFUSES_CONFLICTS, a \`duree\` or \`athleteIds\` that would double-book the coach or an athlete is a 409 naming the sessions, nothing changed. ${idempotent}`,
    "session.update"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Sessions",
  "Training sessions (the seed's SessionDTO): a coach, athletes and activities at a `creneau`."
)) {}

const coachEndpoints = <const Name extends string>(name: Name, prefix: "" | "/coaches") => {
  const where = prefix === "" ? "" : " (also served without the `/coaches` prefix, as the seed spells it)"
  return recordEndpoints(name, {
    table: CoachTable,
    prefix,
    dtos: { answer: CoachDto, create: CoachCreateInput, update: CoachInput },
    texts: {
      create: {
        summary: "Create a coach",
        description: `A supplied \`id\` becomes the coach's id (409 when taken)${where}.`
      },
      all: { summary: "List coaches", description: `Every coach${where}.`, success: "Every coach." },
      get: {
        summary: "Read a coach",
        description: `The coach with this id; 404 \`Coach not found\` when there is none${where}.`
      },
      update: {
        summary: "Update a coach",
        description: `Replaces the name when present and not null; 404 \`Coach not found\`${where}.`
      },
      delete: {
        summary: "Delete a coach",
        description: `404 \`Coach not found\`; 409 while the coach still owns sessions (nothing is deleted)${where}.`,
        success: "Deleted."
      }
    },
    deleteErrors: [NotFound, Conflict, Forbidden]
  })
}

/** The seed gives the coach paths without a prefix; CONTRACT.md serves them there and under `/coaches`. */
export class CoachesGroup extends coachEndpoints("coaches", "/coaches").annotateMerge(tag(
  "Coaches",
  "Coaches (the seed's CoachDTO), under `/coaches`: the same operations as the seed's unprefixed paths."
)) {}
export class RootCoachesGroup extends coachEndpoints("rootCoaches", "").annotateMerge(tag(
  "Coaches, seed paths",
  "The coach operations at the paths the seed gives them, without a prefix (`/create`, `/all`, `/{id}`, ...). The same operations are served under `/coaches`."
)) {}

export class UsersGroup extends HttpApiGroup.make("users").add(
  HttpApiEndpoint.post("create", "/users/create", {
    payload: UserCreateInput,
    success: created(UserDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create a user",
    `Creates a user who can log in, linked to a record of its role. 409 when the name is taken or the record is linked to another user. ${idempotent}`,
    "user.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("all", "/users/all", {
    success: listOf(UserDto, "Every user."),
    error: Forbidden
  }).middleware(Paged)
    .annotateMerge(operation("List users", "Every user.", "user.list")),
  HttpApiEndpoint.get("get", "/users/:id", {
    params: { id: pathId(UserId) },
    success: UserDto,
    error: [NotFound, Forbidden]
  })
    .annotateMerge(operation("Read a user", "The user with this id; 404 when there is none.", "user.read")),
  HttpApiEndpoint.put("update", "/users/update/:id", {
    params: { id: pathId(UserId) },
    payload: UserUpdateInput,
    success: UserDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Update a user",
    `Replaces each field present. A role or password change ends the tokens issued before it. 409 for a name taken, a record linked to another user, or the demotion of the last ADMIN user. ${idempotent}`,
    "user.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/users/delete/:id", {
    params: { id: pathId(UserId) },
    success: noContent("Deleted."),
    error: [NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Delete a user",
    `404 when there is no such user; 409 for the last ADMIN user. ${idempotent}`,
    "user.delete"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Users",
  "The users who log in, each with a role (ADMIN, COACH, ATHLETE) and linked to a record of that kind. Not in the seed; CONTRACT.md gives them."
)) {}

export class AdminsGroup extends recordEndpoints("admins", {
  table: AdminTable,
  prefix: "/admins",
  dtos: { answer: AdminDto, create: AdminCreateInput, update: AdminInput },
  texts: {
    create: {
      summary: "Create an admin record",
      description: "A supplied `id` becomes the record's id (409 when taken)."
    },
    all: { summary: "List admin records", description: "Every admin record.", success: "Every admin record." },
    get: {
      summary: "Read an admin record",
      description: "The admin record with this id; 404 `Admin not found` when there is none."
    },
    update: {
      summary: "Update an admin record",
      description: "Replaces the name when present and not null; 404 when there is no such record."
    },
    delete: {
      summary: "Delete an admin record",
      description: "404 when there is no such record. A user linked to it keeps its role and loses the link.",
      success: "Deleted; a user linked to it keeps its role."
    }
  }
}).annotateMerge(tag(
  "Admins",
  "The admin records ADMIN users are linked to. Not in the seed; CONTRACT.md gives them."
)) {}
