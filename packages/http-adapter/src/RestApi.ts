import { AdminService, AdminTable, CoachService, CoachTable } from "@club/core"
import { CalendarFeedService, PlannedSessionService, SeriesService } from "@club/core/calendar"
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DocsPageLive } from "./docs/DocsPage.ts"
import { ActivitiesHandlers } from "./handlers/activities.ts"
import { AthletesHandlers } from "./handlers/athletes.ts"
import { AttendanceHandlers } from "./handlers/attendance.ts"
import { WebhookHandlers } from "./handlers/webhooks.ts"
import { AuthHandlers } from "./handlers/auth.ts"
import { HealthHandlers } from "./handlers/health.ts"
import { SeriesHandlers } from "./handlers/series.ts"
import { FeedsHandlers, FeedTokenHandlers } from "./handlers/feeds.ts"
import { PlanningHandlers } from "./handlers/planning.ts"
import { recordHandlers } from "./handlers/recordHandlers.ts"
import { ScheduleHandlers } from "./handlers/schedule.ts"
import { SessionsHandlers } from "./handlers/sessions.ts"
import { UsersHandlers } from "./handlers/users.ts"
import { AuthenticationLive } from "./middleware/AuthenticationLive.ts"
import { AvailabilityLive } from "./middleware/AvailabilityLive.ts"
import { BodyLimitLive } from "./middleware/BodyLimitLive.ts"
import { IdempotencyLive } from "./middleware/IdempotencyLive.ts"
import { MediaTypeLive } from "./middleware/MediaTypeLive.ts"
import { PagedLive } from "./middleware/PagedLive.ts"
import { RawInputLive } from "./middleware/RawInputLive.ts"
import { RequestErrorsLive } from "./middleware/RequestErrorsLive.ts"
import { RequestIdInProblemsLive } from "./problems/RequestIdInProblems.ts"
import { ServiceIndexLive } from "./routing/ServiceIndex.ts"
import { UnmatchedRequestsLive } from "./routing/UnmatchedRequests.ts"
import { ServedApi } from "./ServedApi.ts"

/**
 * The whole REST API as routes, with `GET /openapi.json` (OpenAPI 3.1), `GET /docs` (an
 * interactive reference) and `GET /` (where to go). Needs core's use-cases (IdempotentRequests included), core's `Readiness`,
 * and the ports of `CalendarFeedService` and `SeriesService`, which it provides itself.
 */
export const RestApiLive = Layer.mergeAll(
  HttpApiBuilder.layer(ServedApi, { openapiPath: "/openapi.json" }),
  DocsPageLive,
  ServiceIndexLive,
  // Outside the unmatched requests' middleware, so that the problems it answers carry the id too.
  RequestIdInProblemsLive,
  UnmatchedRequestsLive
).pipe(
  Layer.provide([
    ActivitiesHandlers,
    AthletesHandlers,
    AttendanceHandlers,
    WebhookHandlers,
    AuthHandlers,
    HealthHandlers,
    SeriesHandlers,
    PlanningHandlers,
    FeedTokenHandlers,
    FeedsHandlers,
    ScheduleHandlers,
    SessionsHandlers,
    UsersHandlers,
    // The groups `recordEndpoints` makes: one line each.
    recordHandlers("admins", { table: AdminTable, service: AdminService }),
    recordHandlers("coaches", { table: CoachTable, service: CoachService }),
    recordHandlers("rootCoaches", { table: CoachTable, service: CoachService })
  ]),
  Layer.provide([
    AuthenticationLive,
    AvailabilityLive,
    BodyLimitLive,
    MediaTypeLive,
    PagedLive,
    RawInputLive,
    RequestErrorsLive
  ]),
  Layer.provide(IdempotencyLive),
  // Apart from UseCasesLive, so that core's main entry carries no iCalendar or RRULE library (@club/core/calendar).
  Layer.provide([CalendarFeedService.layer, PlannedSessionService.layer, SeriesService.layer])
)
