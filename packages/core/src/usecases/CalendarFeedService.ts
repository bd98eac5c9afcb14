import { Clock, Context, Effect, Layer, Option } from "effect"
import { renderFeed } from "../calendar/CalendarFeed.ts"
import { type Actor, CurrentActor } from "../domain/Actor.ts"
import type { FeedScope, FeedSession, FeedToken } from "../domain/CalendarFeed.ts"
import { EntityNotFound } from "../domain/Errors.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { authorize } from "../domain/Permissions.ts"
import { FeedTokenRepository } from "../ports/FeedTokenRepository.ts"
import { SessionRepository } from "../ports/SessionRepository.ts"
import { UserRepository } from "../ports/UserRepository.ts"
import { traced } from "../tracing/traced.ts"
import { ScheduleSettings } from "./ScheduleSettings.ts"

/** Bumped when the renderer's output changes for the same sessions, so that cached feeds are fetched again. */
const rendererVersion = "1"

const feedNotFound = new EntityNotFound({ entity: "Feed", id: "unknown" })

const feedName = (scope: FeedScope) =>
  scope.kind === "athlete"
    ? `Sessions of athlete ${scope.athleteId}`
    : scope.kind === "coach"
    ? `Sessions of coach ${scope.coachId}`
    : `Sessions of group ${scope.groupe}`

/** A stored session as a single event; a session of a series will be rendered with its series instead. */
const eventOf = ({ revision, session }: FeedSession) => ({
  uid: `session-${session.id}@club-training-service`,
  sequence: revision,
  start: session.creneau as LocalDateTime,
  duree: session.duree,
  summary: session.name ?? "Session",
  description: session.groupe === null ? undefined : `Groupe: ${session.groupe}`
})

/**
 * Calendar feeds (issue 17): each user's feed token, and the feeds it opens. A feed request
 * carries no bearer token: the feed token stands for its user, whose role rules apply (a feed is
 * a view of the planning: `planning.read`, checked once the token has named the user).
 */
const make = Effect.gen(function*() {
  const tokens = yield* FeedTokenRepository
  const sessions = yield* SessionRepository
  const users = yield* UserRepository

  /** `effect` as the token's user; an unknown or replaced token, or a user since deleted: not found, saying no more. */
  const asTokenUser = <A, E, R>(token: FeedToken, effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const userId = yield* tokens.userOf(token)
      if (Option.isNone(userId)) return yield* feedNotFound
      const user = yield* users.findById(userId.value)
      if (Option.isNone(user)) return yield* feedNotFound
      const actor: Actor = {
        userId: user.value.id,
        role: user.value.role,
        athleteId: user.value.athleteId,
        coachId: user.value.coachId,
        adminId: user.value.adminId
      }
      return yield* Effect.provideService(effect, CurrentActor, actor)
    })

  const etagOf = Effect.fnUntraced(function*(scope: FeedScope) {
    const { timeZone } = yield* ScheduleSettings
    const version = yield* sessions.feedVersion(scope)
    // Weak: the body's DTSTAMP is the time of rendering; what it says is the same.
    return `W/"${rendererVersion}.${encodeURIComponent(timeZone)}.${version}"`
  })

  return {
    /** A new feed token for the caller, replacing its old one, which stops working at once. */
    rotateToken: traced("CalendarFeedService.rotateToken")(function*() {
      const actor = yield* authorize("feed.token")
      const token = yield* tokens.rotate(actor.userId)
      return { token, actor }
    }),
    /** Removes the caller's feed token; its feeds stop working at once. */
    revokeToken: traced("CalendarFeedService.revokeToken")(function*() {
      const actor = yield* authorize("feed.token")
      yield* tokens.revoke(actor.userId)
    }),
    /** The feed's ETag, from one cheap read of the store: nothing is rendered. */
    etag: traced("CalendarFeedService.etag")(function*(token: FeedToken, scope: FeedScope) {
      return yield* asTokenUser(
        token,
        Effect.gen(function*() {
          yield* authorize("planning.read")
          return yield* etagOf(scope)
        })
      )
    }),
    /** The feed's iCalendar text and its ETag. */
    render: traced("CalendarFeedService.render")(function*(token: FeedToken, scope: FeedScope) {
      return yield* asTokenUser(
        token,
        Effect.gen(function*() {
          yield* authorize("planning.read")
          const { timeZone } = yield* ScheduleSettings
          const etag = yield* etagOf(scope)
          const feedSessions = yield* sessions.feedSessions(scope)
          const stamp = new Date(yield* Clock.currentTimeMillis)
          const body = renderFeed({
            name: feedName(scope),
            timeZone,
            stamp,
            events: feedSessions.map(eventOf),
            series: []
          })
          return { etag, body }
        })
      )
    })
  }
})

export class CalendarFeedService extends Context.Service<CalendarFeedService, Effect.Success<typeof make>>()(
  "@club/core/CalendarFeedService"
) {
  static readonly layer = Layer.effect(CalendarFeedService, make)
}
