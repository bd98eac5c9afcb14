import { HttpApi, OpenApi } from "effect/http-api"
import { ActivitiesGroup } from "./records/ActivitiesGroup.ts"
import { AdminsGroup } from "./records/AdminsGroup.ts"
import { AthletesGroup } from "./records/AthletesGroup.ts"
import { AuthGroup } from "./auth/AuthGroup.ts"
import { CoachesGroup, RootCoachesGroup } from "./records/CoachesGroup.ts"
import { HealthGroup } from "./health/HealthGroup.ts"
import { ScheduleGroup } from "./sessions/ScheduleGroup.ts"
import { SessionsGroup } from "./sessions/SessionsGroup.ts"
import { UsersGroup } from "./users/UsersGroup.ts"
import { FeedsGroup, FeedTokenGroup } from "./feeds/FeedsGroup.ts"
import { PlanningGroup } from "./planning/PlanningGroup.ts"
import { Availability } from "./shared/Availability.ts"
import { SeriesGroup } from "./series/SeriesGroup.ts"
import { AttendanceGroup } from "./attendance/AttendanceGroup.ts"
import { AuditGroup } from "./audit/AuditGroup.ts"
import { WebhookGroup } from "./webhooks/WebhookGroup.ts"
import { GuardiansGroup } from "./membership/GuardiansGroup.ts"
import { GroupsGroup } from "./membership/GroupsGroup.ts"
import { NoticePreferencesGroup, UnsubscribeGroup } from "./notices/NoticesGroup.ts"
import { PeopleGroup } from "./privacy/PeopleGroup.ts"
import { BodyLimit } from "./shared/BodyLimit.ts"
import { Idempotency } from "./shared/Idempotency.ts"
import { MediaType } from "./shared/MediaType.ts"
import { Paged } from "./shared/Paged.ts"
import { apiDescription, completeDocument, license, servers } from "./openApiDocument.ts"
import { RequestErrors } from "./shared/RequestErrors.ts"

const api = HttpApi.make("club")
  .add(
    HealthGroup,
    AuthGroup,
    ActivitiesGroup,
    AthletesGroup,
    ScheduleGroup,
    SessionsGroup,
    SeriesGroup,
    CoachesGroup,
    UsersGroup,
    AdminsGroup,
    PlanningGroup,
    FeedTokenGroup,
    FeedsGroup,
    AttendanceGroup,
    WebhookGroup,
    GuardiansGroup,
    GroupsGroup,
    NoticePreferencesGroup,
    UnsubscribeGroup,
    PeopleGroup,
    AuditGroup,
    RootCoachesGroup
  )
  .middleware(RequestErrors)
  .middleware(MediaType)
  .middleware(BodyLimit)
  .middleware(Availability)

/** The OpenAPI operation ids of the endpoints that take the middleware `service` (`Idempotency`, `Paged`). */
const operationsWith = (service: unknown): ReadonlySet<string> => {
  const ids = new Set<string>()
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, middleware }) => {
      if ([...middleware].some((taken) => taken === service)) {
        ids.add(`${group.identifier}.${endpoint.identifier}`)
      }
    }
  })
  return ids
}

/**
 * The REST contract of the training-session service. The root coach paths (`/all`, `/:id`, ...)
 * come last, so that every more specific path is tried before them.
 */
export class ClubApi extends api.annotateMerge(OpenApi.annotations({
  title: "Club Training Service",
  version: "1.0.0",
  description: apiDescription,
  license,
  servers,
  transform: (spec) => completeDocument(operationsWith(Idempotency), operationsWith(Paged))(spec)
})) {}
