import { CalendarFeedService, PlannedSessionService, SeriesService } from "@club/core/calendar"
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DocsPageLive } from "./docs/DocsPage.ts"
import { ActivitiesHandlers } from "./records/ActivitiesHandlers.ts"
import { AthletesHandlers } from "./records/AthletesHandlers.ts"
import { AttendanceHandlers } from "./attendance/AttendanceHandlers.ts"
import { AuditHandlers } from "./audit/AuditHandlers.ts"
import { WebhookHandlers } from "./webhooks/WebhookHandlers.ts"
import { GuardiansHandlers } from "./membership/GuardiansHandlers.ts"
import { NoticePreferencesHandlers, UnsubscribeHandlers } from "./notices/NoticesHandlers.ts"
import { PeopleHandlers } from "./privacy/PeopleHandlers.ts"
import { GroupsHandlers } from "./membership/GroupsHandlers.ts"
import { AuthHandlers } from "./auth/AuthHandlers.ts"
import { HealthHandlers } from "./health/HealthHandlers.ts"
import { SeriesHandlers } from "./planning/SeriesHandlers.ts"
import { FeedsHandlers, FeedTokenHandlers } from "./planning/FeedsHandlers.ts"
import { PlanningHandlers } from "./planning/PlanningHandlers.ts"
import { RecordGroupsHandlers } from "./records/RecordGroupsHandlers.ts"
import { ScheduleHandlers } from "./sessions/ScheduleHandlers.ts"
import { SessionsHandlers } from "./sessions/SessionsHandlers.ts"
import { UsersHandlers } from "./records/UsersHandlers.ts"
import { AuthenticationLive } from "./auth/AuthenticationLive.ts"
import { AvailabilityLive } from "./shared/AvailabilityLive.ts"
import { BodyLimitLive } from "./shared/BodyLimitLive.ts"
import { IdempotencyLive } from "./shared/IdempotencyLive.ts"
import { MediaTypeLive } from "./shared/MediaTypeLive.ts"
import { PagedLive } from "./shared/PagedLive.ts"
import { RawInputLive } from "./shared/RawInputLive.ts"
import { RequestErrorsLive } from "./shared/RequestErrorsLive.ts"
import { RequestIdInProblemsLive } from "./shared/RequestIdInProblems.ts"
import { ServiceIndexLive } from "./docs/ServiceIndex.ts"
import { UnmatchedRequestsLive } from "./shared/UnmatchedRequests.ts"
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
    AuditHandlers,
    GuardiansHandlers,
    GroupsHandlers,
    NoticePreferencesHandlers,
    UnsubscribeHandlers,
    PeopleHandlers,
    AuthHandlers,
    HealthHandlers,
    SeriesHandlers,
    PlanningHandlers,
    FeedTokenHandlers,
    FeedsHandlers,
    ScheduleHandlers,
    SessionsHandlers,
    UsersHandlers,
    RecordGroupsHandlers
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
