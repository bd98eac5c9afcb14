import { type NoticeKind, NoticePreferenceService } from "@club/core"
import { htmlContentType, NotFound } from "@club/contract/rest"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { problems, requestPath } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Each user's notice preferences: every failure is its category's problem. */
export const NoticePreferencesHandlers = HttpApiBuilder.group(
  ServedApi,
  "noticePreferences",
  Effect.fn(function*(handlers) {
    const preferences = yield* NoticePreferenceService
    return handlers
      .handle("mine", () => preferences.mine().pipe(problems))
      .handle("setMine", ({ payload }) => preferences.setMine(payload).pipe(problems))
      .handle("ofUser", ({ params }) => preferences.ofUser(params.id).pipe(problems))
      .handle("setForUser", ({ params, payload }) => preferences.setForUser(params.id, payload).pipe(problems))
  })
)

/** How a page names a kind of notice, in the club's two languages. */
const kindNames: Record<NoticeKind, string> = {
  promoted: "promotion from the waiting list / passage de la liste d'attente",
  sessionCancelled: "cancelled sessions / séances annulées",
  invitation: "invitations",
  sessionChanged: "changed sessions / séances modifiées",
  reminder: "reminders / rappels"
}

/**
 * The pages hold the token in their URL: no referrer carries it elsewhere, nothing is loaded, and
 * the only form posts back here.
 */
const pageHeaders = {
  "content-security-policy": "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer"
}

const html = (title: string, body: string) =>
  HttpServerResponse.text(
    `<!doctype html>\n<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`
      + `<title>${title}</title></head><body>${body}</body></html>\n`,
    { contentType: htmlContentType, headers: pageHeaders }
  )

/**
 * One-click unsubscribe: the page a GET shows (never muting: mail scanners fetch links), and the
 * POST that mutes. A token that does not open is a 404 that says no more. The token is base64url
 * (the query's schema), so it goes into the form's action as it is.
 */
export const UnsubscribeHandlers = HttpApiBuilder.group(
  ServedApi,
  "unsubscribe",
  Effect.fn(function*(handlers) {
    const preferences = yield* NoticePreferenceService
    const unknownLink = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.catch(() =>
        Effect.flatMap(
          requestPath,
          (instance) => Effect.fail(new NotFound({ detail: "No such unsubscribe link", instance }))
        )
      ))
    return handlers
      .handle("confirm", ({ query }) =>
        preferences.unsubscribeTarget(query.token).pipe(
          Effect.map(({ kind }) =>
            html(
              "Unsubscribe / Se désabonner",
              `<p>Stop the emails of this kind: ${kindNames[kind]}?<br>Ne plus recevoir ces emails : ${
                kindNames[kind]
              } ?</p><form method="post" action="unsubscribe?token=${query.token}">`
                + `<input type="hidden" name="List-Unsubscribe" value="One-Click">`
                + `<button type="submit">Unsubscribe / Se désabonner</button></form>`
            )
          ),
          unknownLink
        ))
      .handle("unsubscribe", ({ query }) =>
        preferences.unsubscribe(query.token).pipe(
          Effect.map(({ kind }) =>
            html(
              "Unsubscribed / Désabonné",
              `<p>Done: no more emails of this kind (${kindNames[kind]}).<br>C'est fait : plus d'emails de ce type (${
                kindNames[kind]
              }).</p>`
            )
          ),
          unknownLink
        ))
  })
)
