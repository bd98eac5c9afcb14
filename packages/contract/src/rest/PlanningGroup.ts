import { AthleteId, CoachId, LocalDateTime, maxPageLimit, PageCursor, defaultPageLimit, ShortText } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "./Authentication.ts"
import { documented } from "./Documented.ts"
import { SessionDto, sessionExample } from "./Dto.ts"
import { tag } from "./EndpointParts.ts"
import { operation } from "./Operation.ts"
import { pathId } from "./PathId.ts"
import { LimitParameter } from "./LimitParameter.ts"
import { Forbidden } from "./Problems.ts"
import { RawInput } from "./RawInput.ts"

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
  ))
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Planning",
  "The club's planning (issue 17): sessions paged and filtered."
)) {}
