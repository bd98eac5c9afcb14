import { AthleteId, CoachId, FeedToken, ShortText } from "@club/core"
import { Schema, SchemaGetter } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { idempotent, noContent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

/** The media type of a feed's answer. */
export const calendarContentType = "text/calendar; charset=utf-8"

/** A feed token in a path. */
const tokenParameter = FeedToken.annotate({ description: "The feed token `POST /planning/feed-token` answered." })

/** The last segment of a feed's path: `<what>.ics`, read as `what`. */
const icsFile = <S extends Schema.Top & { readonly Encoded: string; readonly DecodingServices: never }>(
  what: S,
  description: string
) =>
  Schema.String.check(Schema.isPattern(/^.+\.ics$/u, { expected: "a name ending in .ics" })).pipe(
    Schema.decodeTo(what as unknown as Schema.Codec<S["Type"], string>, {
      decode: SchemaGetter.transform((file: string) => file.slice(0, -".ics".length)),
      encode: SchemaGetter.transform((value: string) => `${value}.ics`)
    })
  ).annotate({ description })

/** The token and where the caller's feeds are, relative to this API. */
export const FeedTokenDto = documented(
  Schema.Struct({
    token: Schema.String.annotate({ description: "32 random bytes in base64url; shown once, only its hash is kept." }),
    athlete: Schema.NullOr(Schema.String).annotate({
      description: "The feed of the athlete the caller is linked to, when it is."
    }),
    coach: Schema.NullOr(Schema.String).annotate({
      description: "The feed of the coach the caller is linked to, when it is."
    }),
    athletePattern: Schema.String,
    coachPattern: Schema.String,
    groupPattern: Schema.String
  }),
  "FeedToken",
  "A new calendar feed token of the caller, and the paths of its feeds: `{id}` and `{groupe}` (URL-encoded) are to be filled in. Any earlier token of the caller stops working at once.",
  [{
    token: "q5Xo0m6bJ0gqk2Qx1jQm8Jx2m3bFq9YbC4c3kZx7yVw",
    athlete: "/planning/feeds/q5Xo0m6bJ0gqk2Qx1jQm8Jx2m3bFq9YbC4c3kZx7yVw/athlete/3.ics",
    coach: null,
    athletePattern: "/planning/feeds/q5Xo0m6bJ0gqk2Qx1jQm8Jx2m3bFq9YbC4c3kZx7yVw/athlete/{id}.ics",
    coachPattern: "/planning/feeds/q5Xo0m6bJ0gqk2Qx1jQm8Jx2m3bFq9YbC4c3kZx7yVw/coach/{id}.ics",
    groupPattern: "/planning/feeds/q5Xo0m6bJ0gqk2Qx1jQm8Jx2m3bFq9YbC4c3kZx7yVw/group/{groupe}.ics"
  }]
)
export type FeedTokenDto = typeof FeedTokenDto.Type

/** The caller's feed token: any authenticated user. */
export class FeedTokenGroup extends HttpApiGroup.make("feedToken").add(
  HttpApiEndpoint.post("rotate", "/planning/feed-token", { success: FeedTokenDto, error: [InvalidRequest, Forbidden] })
    .annotateMerge(operation(
      "Create or replace the caller's calendar feed token",
      "Creates a feed token for the caller, replacing any it had: the feeds at the old token answer 404 from now on. The answer is the only place the token is shown, and nothing keeps it: an `Idempotency-Key` is refused (400), since a replay would have to store the token; a retry without one simply replaces the token again. A password or role change of the user ends the token, as it ends bearer tokens.",
      "feed.token"
    )),
  HttpApiEndpoint.delete("revoke", "/planning/feed-token", {
    success: noContent("Removed (or there was none): the caller's feeds answer 404."),
    error: Forbidden
  }).annotateMerge(operation(
    "Remove the caller's calendar feed token",
    `The caller's feeds stop working at once. ${idempotent}`,
    "feed.token"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Calendar feed tokens",
  "Each user's calendar feed token: created, replaced and removed by the user."
)) {}

const feedText = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/calendar" })).annotate({
  description:
    "The feed (RFC 5545), `text/calendar; charset=utf-8`, with `ETag`. 304 with no body when `If-None-Match` holds the current ETag."
})

/**
 * The answer to a poll whose `If-None-Match` holds the feed's current ETag: the handler answers it
 * before rendering anything, so it is a success of its own, empty.
 */
const notModified = HttpApiSchema.Empty(304).annotate({
  description: "The feed has not changed since the ETag in `If-None-Match`: no body, the same `ETag`."
})

const feedDescription = (whose: string) =>
  `The iCalendar feed of ${whose}: each of its sessions with a \`creneau\` as an event at the club's wall-clock time (DTSTART;TZID=<club zone>, with its VTIMEZONE), a stable UID, and SEQUENCE counting its changes. The token stands for its user, whose role rules apply; an unknown or replaced token: 404, saying no more. Send \`If-None-Match\` with the last \`ETag\`: an unchanged feed answers 304 without being rendered.`

/** The feeds themselves: the token in the path authenticates, so no bearer token is needed. */
export class FeedsGroup extends HttpApiGroup.make("feeds").add(
  HttpApiEndpoint.get("athlete", "/planning/feeds/:token/athlete/:file", {
    params: { token: tokenParameter, file: icsFile(pathId(AthleteId), "`{id}.ics`: the athlete's id.") },
    success: [feedText, notModified],
    error: NotFound
  }).annotateMerge(operation(
    "An athlete's calendar feed",
    feedDescription(
      "the sessions the athlete is invited to: those it takes part in, and those of its groups on the days of its memberships"
    )
  )),
  HttpApiEndpoint.get("coach", "/planning/feeds/:token/coach/:file", {
    params: { token: tokenParameter, file: icsFile(pathId(CoachId), "`{id}.ics`: the coach's id.") },
    success: [feedText, notModified],
    error: NotFound
  }).annotateMerge(operation("A coach's calendar feed", feedDescription("the coach's sessions"))),
  HttpApiEndpoint.get("group", "/planning/feeds/:token/group/:file", {
    params: { token: tokenParameter, file: icsFile(ShortText, "`{groupe}.ics`: the group, URL-encoded.") },
    success: [feedText, notModified],
    error: NotFound
  }).annotateMerge(operation("A group's calendar feed", feedDescription("the group's sessions"))),
  HttpApiEndpoint.get("guardian", "/planning/feeds/:token/guardian.ics", {
    params: { token: tokenParameter },
    success: [feedText, notModified],
    error: NotFound
  }).annotateMerge(operation(
    "A guardian's calendar feed",
    feedDescription(
      "the athletes the token's user is a guardian of (issue 41): every session one of them is invited to, as one of its athletes or as a member of its group on its day, each as a single event"
    )
  ))
).middleware(RawInput).annotateMerge(tag(
  "Calendar feeds",
  "iCalendar (RFC 5545) feeds of the planning, per athlete, coach, group and guardian, at a URL that holds its user's feed token."
)) {}
