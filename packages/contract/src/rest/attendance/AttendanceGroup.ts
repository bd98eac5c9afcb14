import {
  AthleteId,
  CalendarDate,
  defaultPageLimit,
  maxPageLimit,
  presenceCsvHeader,
  ReplyScope,
  SessionId
} from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import {
  AttendanceFiguresDto,
  AttendanceSettingsBody,
  PresenceInputBody,
  ReplyDto,
  ReplyInputBody,
  SessionPresenceDto,
  SessionRepliesDto
} from "./AttendanceDto.ts"
import { Authentication } from "../shared/Authentication.ts"
import { InvitedPageDto, InvitedSessionPageDto } from "../membership/InvitationDto.ts"
import { pagingParameters } from "../planning/PlanningGroup.ts"
import { idempotent, listOf, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

/** A period of sessions by their `creneau`: both days included. */
const period = {
  from: CalendarDate.annotate({
    description: "The first day of the period (`2026-09-01`).",
    examples: ["2026-09-01" as CalendarDate]
  }),
  to: CalendarDate.annotate({
    description: "The last day of the period, included.",
    examples: ["2027-06-30" as CalendarDate]
  })
}

const csvText = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description: `RFC 4180 CSV (\`text/csv\`), lines ended by CRLF: a header \`${
    presenceCsvHeader.join(",")
  }\`, then a line per mark, by creneau, session and athlete.`
})

/** Issue 18's attendance endpoints under `/attendance`: replies, capacity and waiting list. */
export class AttendanceGroup extends HttpApiGroup.make("attendance").add(
  HttpApiEndpoint.put("configureReplies", "/attendance/sessions/:id/settings", {
    params: { id: pathId(SessionId) },
    payload: AttendanceSettingsBody,
    success: SessionRepliesDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Set a session's capacity and reply cut-off",
    `Sets the keys given: \`capacity\` (null: no limit) and \`replyCutoff\` (null: replies close when the session starts). When places free up (a larger capacity, or none), the first on the waiting list are confirmed in the same transaction; a smaller capacity un-confirms no one. Answers the session's replies. 404 when there is no such session. ${idempotent}`,
    "attendance.configure"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("sessionReplies", "/attendance/sessions/:id/replies", {
    params: { id: pathId(SessionId) },
    success: SessionRepliesDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "A session's replies and waiting list",
    "The session's capacity and cut-off, and every reply: the confirmed in reply order, then the waiting list in its order, then the maybes and the declines. 404 when there is no such session.",
    "attendance.read"
  )),
  HttpApiEndpoint.get("invited", "/attendance/sessions/:id/invited", {
    params: { id: pathId(SessionId) },
    query: pagingParameters,
    success: InvitedPageDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Who is invited to a session",
    `Every athlete invited to the session, and how: its own athletes (\`athlete\`) and the members of its group on its day (\`member\`, with the group; docs/membership.md), in athlete id order, at most \`limit\` (${defaultPageLimit} by default, at most ${maxPageLimit}) a page, read in one statement. Follow \`nextCursor\` for the next page. 404 when there is no such session; 400 naming a paging parameter that does not parse.`,
    "attendance.read"
  )),
  HttpApiEndpoint.get("athleteSessions", "/attendance/athletes/:id/sessions", {
    params: { id: pathId(AthleteId) },
    query: { ...period, ...pagingParameters },
    success: InvitedSessionPageDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "The sessions an athlete is invited to",
    `The sessions of the period (both days included, by \`creneau\`) the athlete is invited to, as one of their athletes (\`athlete\`) or as a member of their group on their day (\`member\`), in (\`creneau\`, \`id\`) order, at most \`limit\` (${defaultPageLimit} by default, at most ${maxPageLimit}) a page, read in one statement. Follow \`nextCursor\` for the next page. 400 naming \`to\` when it is before \`from\`, or a paging parameter that does not parse.`,
    "attendance.read"
  )),
  HttpApiEndpoint.put("reply", "/attendance/athletes/:id/replies/:sessionId", {
    params: { id: pathId(AthleteId), sessionId: pathId(SessionId) },
    query: {
      scope: Schema.optionalKey(
        ReplyScope.annotate({
          description:
            "`one` (the default): this session only; `following`: also every later occurrence of its series that invites the athlete and whose replies are open."
        })
      )
    },
    payload: ReplyInputBody,
    success: listOf(ReplyDto, "The reply to each session written, this session's first."),
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Reply to a session for an athlete",
    `The athlete \`{id}\` answers \`yes\`, \`no\` or \`maybe\` (with an optional reason), replacing its earlier reply. A yes within the capacity is confirmed; beyond it, the athlete waits, in the order the yeses were written (a yes repeated keeps its place). When a confirmed athlete answers something else, the first waiting is confirmed in the same transaction. 400 naming \`athleteId\` when the session does not invite the athlete (neither one of its athletes nor a member of its group on its day); 409 when the session's replies have closed (at its cut-off, or when it starts); 404 when there is no such session. ${idempotent}`,
    "attendance.reply"
  )).middleware(Idempotency),
  HttpApiEndpoint.put("recordPresence", "/attendance/sessions/:id/presence", {
    params: { id: pathId(SessionId) },
    payload: PresenceInputBody,
    success: SessionPresenceDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Record who came",
    `Records each athlete's mark (\`present\`, \`late\`, \`absent\`, \`excused\`), replacing its earlier one, in one transaction; a mark that changes (or is the first) is kept in the history with who recorded it and when, once the session has started (409 before its \`creneau\`). 400 naming \`marks\` for an athlete the session does not invite, or one marked twice; 404 when there is no such session. ${idempotent}`,
    "attendance.mark"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("sessionPresence", "/attendance/sessions/:id/presence", {
    params: { id: pathId(SessionId) },
    success: SessionPresenceDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Who came to a session",
    "Each athlete's current mark, and the history of every change (who, what, when). 404 when there is no such session.",
    "attendance.presence"
  )),
  HttpApiEndpoint.get("figures", "/attendance/figures", {
    query: period,
    success: AttendanceFiguresDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "Attendance rates by athlete and by group",
    "The marks of the sessions of the period, counted by athlete and by group, with the attendance rate. One statement whatever the club's size. 400 naming `to` when it is before `from`.",
    "attendance.figures"
  )),
  HttpApiEndpoint.get("athleteFigures", "/attendance/athletes/:id/figures", {
    params: { id: pathId(AthleteId) },
    query: period,
    success: AttendanceFiguresDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "An athlete's attendance rate",
    "The athlete's marks over the sessions of the period, counted, with its rate, and by group. 400 naming `to` when it is before `from`.",
    "attendance.athleteFigures"
  )),
  HttpApiEndpoint.get("exportSeason", "/attendance/export", {
    query: period,
    success: csvText,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "Export a season's attendance as CSV",
    "Every mark of the sessions of the period, one line each, read in one statement. 400 naming `to` when it is before `from`.",
    "attendance.export"
  ))
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Attendance: replies and waiting list",
  "Issue 18: who is coming to a session, its capacity and its waiting list. Not in the seed."
)) {}
