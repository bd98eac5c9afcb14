import { defaultPageLimit, DoubleBookingCursor, maxPageLimit, SeriesId, SessionId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { created, idempotent, noContent, tag } from "../shared/endpointParts.ts"
import { pagingParameters } from "../planning/PlanningGroup.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"
import {
  DoubleBookingPageDto,
  OccurrenceChangeInput,
  SeriesChangeInput,
  SeriesCreateInput,
  SeriesDto
} from "./SeriesDto.ts"

/** Issue 17's schedule endpoints under `/planning`: recurring series and double bookings. */
export class SeriesGroup extends HttpApiGroup.make("series").add(
  HttpApiEndpoint.post("createSeries", "/planning/series", {
    payload: SeriesCreateInput,
    success: created(SeriesDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create a recurring series",
    `Creates the series and, as sessions (\`isRecurrent: true\`), its occurrences up to the club's horizon (SCHEDULE_HORIZON_WEEKS); later ones are created as time passes. The rule repeats at the same wall-clock time in the club's zone (CLUB_TIMEZONE), across daylight-saving changes. 400 naming the field: a rule outside the subset, an UNTIL before \`start\`, a rule with no occurrence or with more than SCHEDULE_MAX_OCCURRENCES (all of them for a rule with COUNT or UNTIL, up to the horizon otherwise), unknown coach or athletes. 409 naming the sessions when the coach or an athlete is already booked at an overlapping instant (\`[start, start + duree minutes)\` in the club's zone) by a session written through \`/planning\`; nothing is written. The database enforces it, also between instances writing at once. ${idempotent}`,
    "series.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("getSeries", "/planning/series/:id", {
    params: { id: pathId(SeriesId) },
    success: SeriesDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Read a recurring series",
    "The series with its occurrences in time order, after creating those the horizon has reached since it was last read or written. An occurrence whose session was deleted is not listed, and is never created again. 404 when there is no such series.",
    "series.read"
  )),
  HttpApiEndpoint.get("conflicts", "/planning/conflicts", {
    query: {
      limit: pagingParameters.limit,
      cursor: Schema.optionalKey(DoubleBookingCursor.annotate({
        description: "Where the page starts: the `nextCursor` of the page before (absent: the first page)."
      }))
    },
    success: DoubleBookingPageDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "Double bookings",
    `The pairs of sessions, however written (the seed's endpoints included), that book the same coach or athlete at overlapping instants in the club's zone, so that a club can find and clean up double bookings: one row per pair and person, one page at a time (\`limit\` from 1 to ${maxPageLimit}, ${defaultPageLimit} when absent; follow \`nextCursor\`). One statement over the sessions, whose work follows the page. 400 naming the parameter: a \`limit\` out of range, a cursor the API did not give.`,
    "conflict.read"
  )),
  HttpApiEndpoint.delete("cancelSeries", "/planning/series/:id", {
    params: { id: pathId(SeriesId) },
    success: noContent("Cancelled from now on."),
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Cancel a recurring series",
    `Deletes the occurrences that have not started (their sessions, with their memberships and activities) and ends the series: no more occurrences are created. Occurrences that have started, and what is attached to them, stay. 404 when there is no such series. ${idempotent}`,
    "series.cancel"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("cancelOccurrence", "/planning/series/:id/occurrences/:sessionId", {
    params: { id: pathId(SeriesId), sessionId: pathId(SessionId) },
    query: {
      scope: Schema.optionalKey(
        Schema.Literals(["one", "following"]).annotate({
          description:
            "`one` (the default): this occurrence only; `following`: this one and every later one, which ends the series."
        })
      )
    },
    success: noContent("Cancelled."),
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Cancel an occurrence, or it and the following",
    `Deletes the occurrence's session (with its memberships and activities); it is never created again. With \`scope=following\`, also every later occurrence, and the series ends there. An occurrence that has started is not changed: 400 naming \`sessionId\`. 404 when there is no such series, or the session is not one of its occurrences. ${idempotent}`,
    "occurrence.cancel"
  )).middleware(Idempotency),
  HttpApiEndpoint.patch("changeSeries", "/planning/series/:id", {
    params: { id: pathId(SeriesId) },
    payload: SeriesChangeInput,
    success: SeriesDto,
    error: [InvalidRequest, Conflict, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Change a recurring series from now on",
    `Every occurrence that has not started takes the fields given; an occurrence changed by itself (\`overridden\`) keeps its values, and past occurrences, with what is attached to them, are never rewritten. When the series has occurrences in the past, it ends before the first one changed (\`endsBefore\`, \`continuedBy\`) and a new series continues it: the answer is that series. Each changed occurrence's revision (its calendar SEQUENCE) goes up. 400 naming the field: a body that does not decode, unknown coach or athletes, a \`time\` that would move the next occurrence into the past, a series with no occurrence to come. 409 naming the sessions when the coach or an athlete would be booked at an overlapping instant by another session written through \`/planning\`; nothing is written. ${idempotent}`,
    "series.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.patch("changeOccurrence", "/planning/series/:id/occurrences/:sessionId", {
    params: { id: pathId(SeriesId), sessionId: pathId(SessionId) },
    query: {
      scope: Schema.optionalKey(
        Schema.Literals(["one", "following"]).annotate({
          description:
            "`one` (the default): this occurrence only, which becomes an exception; `following`: this one and every later one, as a change of the series from here."
        })
      )
    },
    payload: OccurrenceChangeInput,
    success: SeriesDto,
    error: [InvalidRequest, Conflict, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Change an occurrence, or it and the following",
    `With \`scope=one\`, changes this occurrence's session by the fields given (\`creneau\` moves it, \`time\` changes its time of day) and marks it \`overridden\`: later changes of the series leave it alone. With \`scope=following\`, changes it and every later one as a change of the series does (\`creneau\` is refused there). Answers the series that holds the occurrence. 400 naming the field: an occurrence that has started (\`sessionId\`), a time not to come, unknown coach or athletes. 404 when there is no such series or occurrence. 409 naming the sessions on a double booking; nothing is written. ${idempotent}`,
    "occurrence.update"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Planning: series and conflicts",
  "Issue 17's schedule: recurring series whose occurrences are sessions, and the double bookings among sessions. Not in the seed."
)) {}
