import type { FeedRequestScope, FeedToken } from "@club/core"
import { CalendarFeedService } from "@club/core/calendar"
import { calendarContentType, idempotencyKeyHeader, InvalidRequest, NotFound } from "@club/contract/rest"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { problems, requestPath } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

const feedPaths = (token: string) => {
  const base = `/planning/feeds/${token}`
  return {
    athletePattern: `${base}/athlete/{id}.ics`,
    coachPattern: `${base}/coach/{id}.ics`,
    groupPattern: `${base}/group/{groupe}.ics`,
    athlete: (id: number | null) => (id === null ? null : `${base}/athlete/${id}.ics`),
    coach: (id: number | null) => (id === null ? null : `${base}/coach/${id}.ics`)
  }
}

/** Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
const matches = (ifNoneMatch: string | undefined, etag: string) => {
  if (ifNoneMatch === undefined) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//u, "")
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag))
}

/** Calendar apps poll: each asks again, cheaply, with the ETag it holds. */
const cacheHeaders = (etag: string) => ({ etag, "cache-control": "private, no-cache" })

/**
 * A feed token's answer holds the secret itself: kept for a replay it would sit in clear in the
 * store of idempotent answers (issue 37). The endpoint takes no key; a retry without one replaces
 * the token again, which is safe (docs/DECISIONS.md).
 */
const refuseIdempotencyKey = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) =>
    request.headers[idempotencyKeyHeader] === undefined
      ? Effect.void
      : Effect.fail(
        new InvalidRequest({
          detail:
            `${idempotencyKeyHeader}: not taken here: the answer is a secret, which is never stored; send the request without it`,
          instance: request.url.split("?")[0]!
        })
      )
)

export const FeedTokenHandlers = HttpApiBuilder.group(
  ServedApi,
  "feedToken",
  Effect.fn(function*(handlers) {
    const feeds = yield* CalendarFeedService
    return handlers
      .handle("rotate", () =>
        Effect.andThen(
          refuseIdempotencyKey,
          feeds.rotateToken().pipe(
            Effect.map(({ actor, token }) => {
              const paths = feedPaths(token)
              return {
                token,
                athlete: paths.athlete(actor.athleteId),
                coach: paths.coach(actor.coachId),
                athletePattern: paths.athletePattern,
                coachPattern: paths.coachPattern,
                groupPattern: paths.groupPattern
              }
            }),
            problems
          )
        ))
      .handle("revoke", () => feeds.revokeToken().pipe(problems))
  })
)

export const FeedsHandlers = HttpApiBuilder.group(
  ServedApi,
  "feeds",
  Effect.fn(function*(handlers) {
    const feeds = yield* CalendarFeedService
    /**
     * A feed: its ETag first (one cheap read); an `If-None-Match` that holds it is answered 304 with
     * nothing rendered. Any failure (an unknown or replaced token, a user since deleted) is a 404 that
     * says no more.
     */
    const serveFeed = (token: FeedToken, scope: FeedRequestScope) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const etag = yield* feeds.etag(token, scope)
        if (matches(request.headers["if-none-match"], etag)) {
          return HttpServerResponse.empty({ status: 304, headers: cacheHeaders(etag) })
        }
        const feed = yield* feeds.render(token, scope)
        return HttpServerResponse.text(feed.body, {
          contentType: calendarContentType,
          headers: cacheHeaders(feed.etag)
        })
      }).pipe(
        Effect.catch(() =>
          Effect.flatMap(requestPath, (instance) => Effect.fail(new NotFound({ detail: "No such feed", instance })))
        )
      )
    return handlers
      .handle("athlete", ({ params }) => serveFeed(params.token, { kind: "athlete", athleteId: params.file }))
      .handle("coach", ({ params }) => serveFeed(params.token, { kind: "coach", coachId: params.file }))
      .handle("group", ({ params }) => serveFeed(params.token, { kind: "group", groupe: params.file }))
      .handle("guardian", ({ params }) => serveFeed(params.token, { kind: "guardian" }))
  })
)
