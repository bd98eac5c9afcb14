import { Clock, Context, Effect, Layer, Option } from "effect"
import {
  type FeedCancellation,
  type FeedEvent,
  type FeedOverride,
  type FeedSeries,
  renderFeed
} from "./CalendarFeed.ts"
import { plusSeconds } from "../shared/clubTime.ts"
import type { SeriesId } from "../shared/Ids.ts"
import { occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "../series/Recurrence.ts"
import type { Series, SeriesCancellation } from "../series/Series.ts"
import { SeriesRepository } from "../series/SeriesRepository.ts"
import { type Actor, CurrentActor } from "../shared/Actor.ts"
import type { FeedRequestScope, FeedScope, FeedSession, FeedToken } from "./FeedToken.ts"
import { EntityNotFound } from "../shared/Errors.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import { authorize } from "../shared/Permissions.ts"
import { FeedTokenRepository } from "./FeedTokenRepository.ts"
import { SessionRepository } from "../sessions/SessionRepository.ts"
import { UserRepository } from "../users/UserRepository.ts"
import { traced } from "../shared/traced.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"

/** Bumped when the renderer's output changes for the same sessions, so that cached feeds are fetched again. */
const rendererVersion = "3"

/** The most occurrences of one series a feed expands to compare them with its sessions. */
const maxExpanded = 100_000

const feedNotFound = new EntityNotFound({ entity: "Feed", id: "unknown" })

const feedName = (scope: FeedScope) =>
  scope.kind === "athlete"
    ? `Sessions of athlete ${scope.athleteId}`
    : scope.kind === "coach"
    ? `Sessions of coach ${scope.coachId}`
    : scope.kind === "guardian"
    ? `Sessions of the athletes of user ${scope.userId}`
    : `Sessions of group ${scope.groupe}`

/** A stored session as a single event (a session of a series that is not rendered with its series). */
const eventOf = ({ revision, session }: FeedSession): FeedEvent => ({
  uid: `session-${session.id}@club-training-service`,
  sequence: revision,
  start: session.creneau as LocalDateTime,
  duree: session.duree,
  summary: session.name ?? "Session",
  description: session.groupe === null ? undefined : `Groupe: ${session.groupe}`
})

/**
 * Whether the series as such belongs to the feed: its own values put it in the scope. A guardian's
 * feed, and an athlete's occurrences by membership, show occurrences as single events (membership
 * is dated: the series' values do not say which occurrences are in).
 */
const seriesInScope = (series: Series, scope: FeedScope) =>
  scope.kind === "athlete"
    ? series.athleteIds.includes(scope.athleteId)
    : scope.kind === "coach"
    ? series.coachId === scope.coachId
    : scope.kind === "guardian"
    ? false
    : series.groupe === scope.groupe

/** Whether the cancelled session was in the scope: there the feed shows it cancelled, elsewhere an EXDATE. */
const cancellationInScope = (cancellation: SeriesCancellation, scope: FeedScope) =>
  scope.kind === "athlete"
    ? cancellation.athleteIds.includes(scope.athleteId)
    : scope.kind === "coach"
    ? cancellation.coachId === scope.coachId
    : scope.kind === "guardian"
    ? false
    : cancellation.groupe === scope.groupe

const basic = (local: LocalDateTime) => local.replaceAll("-", "").replaceAll(":", "")

/**
 * A series of the feed and its occurrences in the scope (`members`), as one recurring event
 * (docs/schedule/feeds-and-paging.md "Series"): DTSTART its first occurrence, an RRULE that
 * stops (UNTIL) at its last occurrence that exists or was cancelled (up to the horizon, before
 * `endsBefore`), a STATUS:CANCELLED instance for each occurrence cancelled by itself whose session
 * was in the scope (its sequence above the series'), EXDATE for each other time of the rule without
 * a session in the scope (not this scope's), and a RECURRENCE-ID override for each session
 * whose shown values differ from the series'. Sessions the rule does not give stay single events.
 */
const seriesFeedOf = (
  series: Series,
  members: ReadonlyArray<FeedSession>,
  cancellations: ReadonlyArray<SeriesCancellation>
): { readonly series?: FeedSeries; readonly events: ReadonlyArray<FeedEvent> } => {
  const rule = parseRecurrenceRule(series.rrule) as RecurrenceRule
  const last = series.endsBefore !== null && series.endsBefore <= series.expandedUntil
    ? plusSeconds(series.endsBefore, -1)
    : series.expandedUntil
  const times = occurrencesOf(rule, series.start, { until: last, max: maxExpanded })
  const first = times[0]
  if (first === undefined) return { events: members.map(eventOf) }
  const byTime = new Map(members.map((member) => [member.occurrenceStart, member]))
  const summary = series.name ?? "Session"
  const description = series.groupe === null ? undefined : `Groupe: ${series.groupe}`
  const cancelledAt = new Map(cancellations.map((c) => [c.occurrenceStart, c.sequence]))
  const exdates: Array<LocalDateTime> = []
  const cancelled: Array<FeedCancellation> = []
  const overrides: Array<FeedOverride> = []
  for (const time of times) {
    const member = byTime.get(time)
    byTime.delete(time)
    if (member === undefined) {
      const sequence = cancelledAt.get(time)
      // Above the series' SEQUENCE even after later changes of the series, so apps apply it.
      if (sequence !== undefined) {
        cancelled.push({ recurrenceId: time, sequence: Math.max(sequence, series.revision + 1) })
      } else exdates.push(time)
      continue
    }
    const { session } = member
    const same = session.creneau === time && session.name === series.name && session.groupe === series.groupe &&
      session.duree === series.duree
    if (same) continue
    const event = eventOf(member)
    overrides.push({ recurrenceId: time, sequence: member.revision, occurrence: event })
  }
  const ruleParts = [
    `FREQ=${rule.freq}`,
    ...(rule.interval === 1 ? [] : [`INTERVAL=${rule.interval}`]),
    ...(rule.byDay.length === 0 ? [] : [`BYDAY=${rule.byDay.join(",")}`]),
    `UNTIL=${basic(times.at(-1)!)}`
  ]
  return {
    series: {
      uid: `series-${series.id}@club-training-service`,
      sequence: series.revision,
      dtstart: first,
      duree: series.duree,
      rrule: ruleParts.join(";"),
      summary,
      description,
      exdates,
      cancelled,
      overrides
    },
    events: [...byTime.values()].map(eventOf)
  }
}

/**
 * Calendar feeds (issue 17): each user's feed token, and the feeds it opens. A feed request
 * carries no bearer token: the feed token stands for its user, whose role rules apply (a feed is
 * a view of the planning: `planning.read`, checked once the token has named the user).
 */
const make = Effect.gen(function*() {
  const tokens = yield* FeedTokenRepository
  const sessions = yield* SessionRepository
  const users = yield* UserRepository
  const seriesRepository = yield* SeriesRepository

  /** The feed's single events and series, from its sessions and one read of the series they are occurrences of. */
  const contentOf = (scope: FeedScope, feedSessions: ReadonlyArray<FeedSession>) =>
    Effect.gen(function*() {
      const ids = [...new Set(feedSessions.flatMap((f) => f.seriesId === null ? [] : [f.seriesId]))]
      const found = new Map((yield* seriesRepository.findMany(ids)).map((series) => [series.id, series]))
      const cancellations = new Map<SeriesId, Array<SeriesCancellation>>()
      for (const cancellation of yield* seriesRepository.cancellations(ids)) {
        if (!cancellationInScope(cancellation, scope)) continue
        const list = cancellations.get(cancellation.seriesId)
        if (list === undefined) cancellations.set(cancellation.seriesId, [cancellation])
        else list.push(cancellation)
      }
      const events: Array<FeedEvent> = []
      const members = new Map<SeriesId, Array<FeedSession>>()
      for (const feedSession of feedSessions) {
        const series = feedSession.seriesId === null ? undefined : found.get(feedSession.seriesId)
        if (series === undefined || feedSession.occurrenceStart === null || !seriesInScope(series, scope)) {
          events.push(eventOf(feedSession))
          continue
        }
        const list = members.get(series.id)
        if (list === undefined) members.set(series.id, [feedSession])
        else list.push(feedSession)
      }
      const series: Array<FeedSeries> = []
      for (const [id, list] of members) {
        const rendered = seriesFeedOf(found.get(id)!, list, cancellations.get(id) ?? [])
        if (rendered.series !== undefined) series.push(rendered.series)
        events.push(...rendered.events)
      }
      return { events, series }
    })

  /** The scope a feed's URL names, for the token's user: a guardian's feed is the user's own. */
  const scopeOf = (scope: FeedRequestScope) =>
    Effect.map(
      Effect.service(CurrentActor),
      (actor): FeedScope => scope.kind === "guardian" ? { kind: "guardian", userId: actor.userId } : scope
    )

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
    etag: traced("CalendarFeedService.etag")(function*(token: FeedToken, requested: FeedRequestScope) {
      return yield* asTokenUser(
        token,
        Effect.gen(function*() {
          yield* authorize("planning.read")
          return yield* etagOf(yield* scopeOf(requested))
        })
      )
    }),
    /** The feed's iCalendar text and its ETag. */
    render: traced("CalendarFeedService.render")(function*(token: FeedToken, requested: FeedRequestScope) {
      return yield* asTokenUser(
        token,
        Effect.gen(function*() {
          yield* authorize("planning.read")
          const scope = yield* scopeOf(requested)
          const { timeZone } = yield* ScheduleSettings
          const etag = yield* etagOf(scope)
          const feedSessions = yield* sessions.feedSessions(scope)
          const stamp = new Date(yield* Clock.currentTimeMillis)
          const body = renderFeed({
            name: feedName(scope),
            timeZone,
            stamp,
            ...(yield* contentOf(scope, feedSessions))
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
