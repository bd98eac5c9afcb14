import { maxUnsubscribeTokenLength, NoticePreference, NoticePreferenceInput, noticeKinds, UserId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { idempotent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

export const NoticePreferenceDto = documented(
  Schema.Struct(NoticePreference.fields),
  "NoticePreference",
  "A user's notice preferences. A user who never chose has the defaults: every notice, by email, in the club's language (`language` null).",
  [
    { userId: 12, language: null, emailEnabled: true, mutedKinds: [] },
    { userId: 12, language: "en", emailEnabled: true, mutedKinds: ["reminder"] }
  ]
)

export const NoticePreferenceBody = documented(
  Schema.Struct(NoticePreferenceInput.fields),
  "NoticePreferenceInput",
  `The whole choice, which replaces the one before: \`language\` (\`fr\`, \`en\`, or null for the club's), \`emailEnabled\`, and \`mutedKinds\`, each of ${
    noticeKinds.map((kind) => `\`${kind}\``).join(", ")
  } at most once.`,
  [{ language: "en", emailEnabled: true, mutedKinds: ["reminder", "invitation"] }]
)

const userParam = { id: pathId(UserId).annotate({ description: "The user's id." }) }

const honoured =
  "A change holds for every notice sent from then on, those already queued included: the sender reads the preferences when it sends."

/** Each user's notice preferences (issue 42): the caller's own, and any user's for an admin. */
export class NoticePreferencesGroup extends HttpApiGroup.make("noticePreferences").add(
  HttpApiEndpoint.get("mine", "/notices/preferences", {
    success: NoticePreferenceDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "The caller's notice preferences",
    "Which notices the caller receives by email, and in which language; the defaults when it never chose.",
    "noticePreference.own"
  )),
  HttpApiEndpoint.put("setMine", "/notices/preferences", {
    payload: NoticePreferenceBody,
    success: NoticePreferenceDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Set the caller's notice preferences",
    `Replaces the caller's choice with the body's whole: a member left out is refused (400 naming it), as is an unknown kind or language. ${honoured} ${idempotent}`,
    "noticePreference.own"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("ofUser", "/notices/preferences/:id", {
    params: userParam,
    success: NoticePreferenceDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "A user's notice preferences",
    "The preferences of the user `{id}` (admins, and the user itself). 404 when there is no such user.",
    "noticePreference.manage"
  )),
  HttpApiEndpoint.put("setForUser", "/notices/preferences/:id", {
    params: userParam,
    payload: NoticePreferenceBody,
    success: NoticePreferenceDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Set a user's notice preferences",
    `Replaces the choice of the user \`{id}\` (admins, and the user itself), as \`PUT /notices/preferences\` does the caller's. 404 when there is no such user. ${honoured} ${idempotent}`,
    "noticePreference.manage"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Notice preferences",
  "Issue 42: which notices each user receives by email, and in which language (docs/notices.md)."
)) {}

/** The media type of the unsubscribe pages. */
export const htmlContentType = "text/html; charset=utf-8"

const tokenQuery = {
  token: Schema.String.check(
    Schema.isMaxLength(maxUnsubscribeTokenLength),
    Schema.isPattern(/^[A-Za-z0-9_-]+$/u, { expected: "an unsubscribe token" })
  ).annotate({
    description:
      `The token of the notice's unsubscribe link (base64url, at most ${maxUnsubscribeTokenLength} characters): signed for one user and one kind of notice.`
  })
}

const page = (description: string) =>
  Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" })).annotate({ description })

/** RFC 8058's body: the one a mail client's one-click unsubscribe POSTs. */
export const OneClickBody = Schema.Struct({
  "List-Unsubscribe": Schema.Literal("One-Click").annotate({ description: "Always `One-Click` (RFC 8058)." })
}).pipe(HttpApiSchema.asFormUrlEncoded())

const unknownLink =
  "A token that was not signed by this service (forged, altered, or signed under another token secret), or whose user no longer exists: 404, the same whoever it names."

/**
 * One-click unsubscribe (RFC 8058): the link in a notice's `List-Unsubscribe` header. No login: the
 * signed token stands for one user and one kind of notice.
 */
export class UnsubscribeGroup extends HttpApiGroup.make("unsubscribe").add(
  HttpApiEndpoint.get("confirm", "/notices/unsubscribe", {
    query: tokenQuery,
    success: page("A small HTML page naming the kind of notice, with a button that POSTs the one-click body."),
    error: [InvalidRequest, NotFound]
  }).annotateMerge(operation(
    "The unsubscribe page of a notice's link",
    `What a person who opens the link sees: a page with one button, which POSTs here. It never unsubscribes by itself: mail scanners fetch links. ${unknownLink}`
  )),
  HttpApiEndpoint.post("unsubscribe", "/notices/unsubscribe", {
    query: tokenQuery,
    payload: OneClickBody,
    success: page("A small HTML page saying the kind of notice is muted."),
    error: [InvalidRequest, NotFound]
  }).annotateMerge(operation(
    "One-click unsubscribe (RFC 8058)",
    `Mutes the link's kind of notice for its user, at once: no further notice of that kind is sent. The body is \`List-Unsubscribe=One-Click\` (\`application/x-www-form-urlencoded\`), as a mail client sends it. Muting again answers the same (200). Takes no \`Idempotency-Key\`: it is idempotent as it is, and needs no login. ${unknownLink}`
  ))
).middleware(RawInput).annotateMerge(tag(
  "Unsubscribe",
  "Issue 42: the one-click unsubscribe link every notice carries (RFC 8058), which works without a login."
)) {}
