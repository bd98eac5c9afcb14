import { HttpApi, OpenApi } from "effect/http-api"
import { ActivitiesGroup } from "./ActivitiesGroup.ts"
import { AdminsGroup } from "./AdminsGroup.ts"
import { AthletesGroup } from "./AthletesGroup.ts"
import { AuthGroup } from "./AuthGroup.ts"
import { CoachesGroup, RootCoachesGroup } from "./CoachesGroup.ts"
import { HealthGroup } from "./HealthGroup.ts"
import { ScheduleGroup } from "./ScheduleGroup.ts"
import { SessionsGroup } from "./SessionsGroup.ts"
import { UsersGroup } from "./UsersGroup.ts"
import { FeedsGroup, FeedTokenGroup } from "./FeedsGroup.ts"
import { PlanningGroup } from "./PlanningGroup.ts"
import { Availability } from "./Availability.ts"
import { SeriesGroup } from "./SeriesGroup.ts"
import { AttendanceGroup } from "./AttendanceGroup.ts"
import { WebhookGroup } from "./WebhookGroup.ts"
import { BodyLimit } from "./BodyLimit.ts"
import { Idempotency } from "./Idempotency.ts"
import { MediaType } from "./MediaType.ts"
import { Paged } from "./Paged.ts"
import { apiDescription, completeDocument, license, servers } from "./OpenApiDocument.ts"
import { RequestErrors } from "./RequestErrors.ts"

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
