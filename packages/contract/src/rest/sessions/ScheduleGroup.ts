import { AthleteId, CalendarDate, SessionId } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { listOf, tag } from "../shared/endpointParts.ts"
import { ActivitySummaryDto, SessionSummaryDto } from "../shared/Dto.ts"
import { Forbidden } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"

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
