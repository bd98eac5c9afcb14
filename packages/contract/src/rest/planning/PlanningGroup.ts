import {
  AthleteId,
  CoachId,
  defaultPageLimit,
  LocalDateTime,
  maxPageLimit,
  PageCursor,
  PlannedSessionChange,
  PlannedSessionCreate,
  SessionId,
  ShortText
} from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { SessionDto, sessionExample } from "../shared/Dto.ts"
import { created, idempotent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { seedFields } from "../shared/SeedInput.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { LimitParameter } from "../shared/LimitParameter.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

/** The paging parameters a listing takes: at most `limit` items, after `cursor`. */
export const pagingParameters = {
  limit: Schema.optionalKey(LimitParameter.annotate({
    description: `At most this many items, from 1 to ${maxPageLimit} (${defaultPageLimit} when absent).`
  })),
  cursor: Schema.optionalKey(PageCursor.annotate({
    description: "Where the page starts: the `nextCursor` of the page before (absent: the first page)."
  }))
}

export const SessionPageDto = documented(
  Schema.Struct({
    items: Schema.Array(SessionDto),
    nextCursor: Schema.NullOr(Schema.String).annotate({
      description: "The `cursor` of the next page; null on the last page."
    })
  }),
  "SessionPage",
  "One page of sessions in (`creneau`, `id`) order, a session without a `creneau` first, and the cursor of the next page.",
  [{
    items: [sessionExample],
    nextCursor: "WyIyMDI2LTExLTI0VDE4OjMwOjAwIiw3XQ"
  }]
)

const { athleteIds, coachId, creneau, duree, groupe, name } = PlannedSessionCreate.fields

/** The body of `POST /planning/sessions`: `creneau` and `duree` required, the rest as the seed's session create takes them. */
export const PlannedSessionCreateInput = documented(
  Schema.Struct({ ...seedFields({ name, groupe, coachId, athleteIds }), duree, creneau }),
  "PlannedSessionCreate",
  "A session written through the schedule: `creneau` (the club's wall-clock time) and `duree` (minutes, at least 1) are required, since the session books its coach and athletes over `[creneau, creneau + duree minutes)`.",
  [{ name: "Track", groupe: "Seniors", coachId: 2, athleteIds: [3, 4], duree: 90, creneau: "2026-11-24T18:30:00" }]
)

export const PlannedSessionChangeInput = documented(
  Schema.Struct(PlannedSessionChange.fields),
  "PlannedSessionChange",
  "The fields that change (null clears `name`, `groupe` or `coachId`; `athleteIds` becomes the whole list; `duree` in minutes).",
  [{ creneau: "2026-11-24T19:00:00", coachId: 5 }]
)

/** The planning (issue 17): sessions paged by cursor and filtered. */
export class PlanningGroup extends HttpApiGroup.make("planning").add(
  HttpApiEndpoint.get("sessions", "/planning/sessions", {
    query: {
      from: Schema.optionalKey(LocalDateTime.annotate({
        description: "Sessions whose `creneau` is at or after this local date-time (`2026-11-24T00:00:00`)."
      })),
      to: Schema.optionalKey(LocalDateTime.annotate({
        description: "Sessions whose `creneau` is before this local date-time."
      })),
      coachId: Schema.optionalKey(pathId(CoachId).annotate({ description: "Sessions of this coach." })),
      groupe: Schema.optionalKey(ShortText.annotate({ description: "Sessions of this group, matched exactly." })),
      athleteId: Schema.optionalKey(
        pathId(AthleteId).annotate({ description: "Sessions this athlete takes part in." })
      ),
      ...pagingParameters
    },
    success: SessionPageDto,
    error: Forbidden
  }).annotateMerge(operation(
    "Sessions of the planning, paged",
    `The sessions matching every filter given, in (\`creneau\`, \`id\`) order (a session without a \`creneau\` first; it matches no \`from\` or \`to\`), at most \`limit\` (${defaultPageLimit} by default, at most ${maxPageLimit}) a page. Follow \`nextCursor\` for the next page: paging is by key, so sessions created meanwhile never make a page repeat or skip one listed before. A parameter that does not parse (a \`limit\` out of range, a cursor not given by this API): 400 naming it.`,
    "planning.read"
  )),
  HttpApiEndpoint.post("createSession", "/planning/sessions", {
    payload: PlannedSessionCreateInput,
    success: created(SessionDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create a session, refusing double bookings",
    `Creates a session (\`isRecurrent: false\`) that books its coach and athletes over \`[creneau, creneau + duree minutes)\` in the club's zone. 409 naming the sessions when one of them is already booked at an overlapping instant by a session written through \`/planning\`; nothing is written. The database enforces it, also between instances writing at once. 400 naming the field: a body that does not decode, unknown coach or athletes. ${idempotent}`,
    "plannedSession.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.patch("changeSession", "/planning/sessions/:id", {
    params: { id: pathId(SessionId) },
    payload: PlannedSessionChangeInput,
    success: SessionDto,
    error: [InvalidRequest, Conflict, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Change a session, refusing double bookings",
    `Changes the fields given of a session written through the seed or the planning, and books its coach and athletes again; its revision (its calendar SEQUENCE) goes up. An occurrence of a series changed here becomes an exception (\`overridden\`) that later changes of the series leave alone. 409 naming the sessions on a double booking; nothing is written. 404 when there is no such session. ${idempotent}`,
    "plannedSession.update"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Planning",
  "The club's planning (issue 17): sessions paged and filtered, and written with their bookings checked."
)) {}
