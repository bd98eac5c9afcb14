import { SessionId } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { created, idempotent, listOf, noContent, tag, text } from "../shared/endpointParts.ts"
import { SessionCreateInput, SessionDto, SessionInput } from "../shared/Dto.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { InputFailure } from "../shared/RequestErrors.ts"
import { SessionCreateFailedText, SessionNotFoundTextBody } from "../shared/SeedFailures.ts"

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
