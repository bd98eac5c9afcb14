import { AthleteId, ReplyScope, SessionId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { AttendanceSettingsBody, ReplyDto, ReplyInputBody, SessionRepliesDto } from "./AttendanceDto.ts"
import { Authentication } from "./Authentication.ts"
import { idempotent, listOf, tag } from "./EndpointParts.ts"
import { Idempotency } from "./Idempotency.ts"
import { operation } from "./Operation.ts"
import { pathId } from "./PathId.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "./Problems.ts"
import { RawInput } from "./RawInput.ts"

/** Issue 18's attendance endpoints under `/attendance`: replies, capacity and waiting list. */
export class AttendanceGroup extends HttpApiGroup.make("attendance").add(
  HttpApiEndpoint.put("configureReplies", "/attendance/sessions/:id/settings", {
    params: { id: pathId(SessionId) },
    payload: AttendanceSettingsBody,
    success: SessionRepliesDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Set a session's capacity and reply cut-off",
    `Sets the keys given: \`capacity\` (null: no limit) and \`replyCutoff\` (null: replies close when the session starts). When places free up (a larger capacity, or none), the first on the waiting list are confirmed in the same transaction; a smaller capacity un-confirms no one. Answers the session's replies. Only the session's coach (any coach for a session without one): another coach gets 403. 404 when there is no such session. ${idempotent}`,
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
  HttpApiEndpoint.put("reply", "/attendance/athletes/:id/replies/:sessionId", {
    params: { id: pathId(AthleteId), sessionId: pathId(SessionId) },
    query: {
      scope: Schema.optionalKey(
        ReplyScope.annotate({
          description:
            "`one` (the default): this session only; `following`: also every later occurrence of its series that the athlete belongs to and whose replies are open."
        })
      )
    },
    payload: ReplyInputBody,
    success: listOf(ReplyDto, "The reply to each session written, this session's first."),
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Reply to a session for an athlete",
    `The athlete \`{id}\` answers \`yes\`, \`no\` or \`maybe\` (with an optional reason), replacing its earlier reply. A yes within the capacity is confirmed; beyond it, the athlete waits, in the order the yeses were written (a yes repeated keeps its place). When a confirmed athlete answers something else, the first waiting is confirmed in the same transaction. 400 naming \`athleteId\` when the athlete is not one of the session's athletes; 409 when the session's replies have closed (at its cut-off, or when it starts); 404 when there is no such session. ${idempotent}`,
    "attendance.reply"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Attendance: replies and waiting list",
  "Issue 18: who is coming to a session, its capacity and its waiting list. Not in the seed."
)) {}
