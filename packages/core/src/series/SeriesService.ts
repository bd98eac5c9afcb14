import { Clock, Context, Effect, Layer, Option } from "effect"
import { plusSeconds, wallClockAt } from "../shared/clubTime.ts"
import {
  bookingPositionText,
  type DoubleBookingCursor,
  DoubleBookingPage,
  readBookingPosition,
  positionOfBooking
} from "../sessions/DoubleBooking.ts"
import { openCursor } from "../shared/Cursor.ts"
import { EntityNotFound, InvalidValue } from "../shared/Errors.ts"
import { defaultPageLimit, maxPageLimit } from "../sessions/SessionPage.ts"
import type { SeriesId, SessionId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import { authorize, coachFor, handsOverOnly } from "../shared/Permissions.ts"
import { isBounded, occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "./Recurrence.ts"
import type { OccurrenceChange, Series, SeriesChange, SeriesCreate } from "./Series.ts"
import { CursorSeal } from "../shared/CursorSeal.ts"
import { SeriesRepository } from "./SeriesRepository.ts"
import { SessionRepository } from "../sessions/SessionRepository.ts"
import { traced } from "../shared/traced.ts"
import { InvitationRepository } from "../membership/InvitationRepository.ts"
import { groupCoachesOf } from "../membership/groupCoaches.ts"
import { currentHorizon, extendSeries, SeriesExtensionWake } from "./SeriesExtension.ts"
import { defaultScheduleSettings, occurrencesPerWrite, peopleOf, type ScheduleSettings } from "./ScheduleSettings.ts"

const refuseRule = (reason: string) => new InvalidValue({ field: "rrule", reason })

const seconds = (local: LocalDateTime) => Date.parse(`${local}Z`) / 1000

/** `20270630T183000`, the floating form of an RRULE's UNTIL. */
const basicForm = (local: LocalDateTime) => local.replaceAll("-", "").replaceAll(":", "")

/**
 * The rule of a series that continues `rrule` from an occurrence on: COUNT becomes the number of
 * occurrences left (`remaining`), and an UNTIL with a time of day moves with the occurrences
 * (`shiftSeconds`); a date-only UNTIL (the end of that day) stays, since a time of day changes no day.
 */
const continuedRule = (rrule: string, remaining: number | undefined, shiftSeconds: number) =>
  rrule.split(";").map((part) => {
    const [name, value = ""] = part.split("=") as [string, string | undefined]
    if (name === "COUNT" && remaining !== undefined) return `COUNT=${remaining}`
    if (name === "UNTIL" && value.includes("T") && shiftSeconds !== 0) {
      const local = value.replace(
        /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/u,
        "$1-$2-$3T$4:$5:$6"
      ) as LocalDateTime
      return `UNTIL=${basicForm(plusSeconds(local, shiftSeconds))}`
    }
    return part
  }).join(";")

const make = Effect.gen(function*() {
  const repository = yield* SeriesRepository
  const sessions = yield* SessionRepository
  const invitations = yield* InvitationRepository
  const cursors = yield* CursorSeal

  /** The wall-clock time up to which occurrences exist: now at the club, plus the horizon. */
  const horizon = currentHorizon

  /** The rule of a series, checked: in the subset, ending after its start, within the bound on occurrences. */
  const checkedRule = (input: SeriesCreate, until: LocalDateTime, settings: ScheduleSettings) =>
    Effect.gen(function*() {
      const rule = parseRecurrenceRule(input.rrule)
      if (typeof rule === "string") return yield* refuseRule(rule)
      if (rule.until !== undefined && rule.until < input.start) {
        return yield* refuseRule(`UNTIL (${rule.until}) is before the start (${input.start})`)
      }
      // The first occurrence first: a few periods' walk at most (`everOccurs`), and a rule that
      // never occurs, or starts beyond the horizon, is refused before any longer one.
      const [first] = occurrencesOf(rule, input.start, { max: 1 })
      if (first === undefined) return yield* refuseRule("the rule gives no occurrence from the start")
      if (first > until) {
        return yield* refuseRule(`the first occurrence (${first}) is beyond the horizon (${until})`)
      }
      // A rule that stops is counted whole; one that does not, up to the horizon. A rule with COUNT
      // that occurs at all gives exactly COUNT occurrences (in the subset, COUNT and UNTIL never
      // come together): counted without a walk, which is the create's longest stretch of CPU.
      const { maxOccurrences } = settings
      const counted = rule.count !== undefined ? rule.count : occurrencesOf(rule, input.start, {
        until: isBounded(rule) ? undefined : until,
        max: maxOccurrences + 1
      }).length
      if (counted > maxOccurrences) {
        return yield* refuseRule(`the series would create more than ${maxOccurrences} occurrences`)
      }
      const maxPlaces = settings.maxSeriesPlaces ?? defaultScheduleSettings.maxSeriesPlaces!
      const places = counted * peopleOf(input)
      if (places > maxPlaces) {
        return yield* new InvalidValue({
          field: "athleteIds",
          reason: `the series would hold ${places} places (${counted} occurrences × ${
            peopleOf(input)
          } people), more than ${maxPlaces}`
        })
      }
      return rule
    })

  /**
   * Creates the occurrences the horizon has reached since the series was last extended: one
   * transaction's worth, unless another writer holds the series (issue 37: a read never waits
   * behind the extension's transaction; it answers what exists). What is left, or skipped, the
   * server's extension creates, woken now rather than at its next round.
   */
  const extended = (series: Series) =>
    Effect.gen(function*() {
      const { settings, until } = yield* horizon
      if (series.expandedUntil >= until) return series
      const outcome = yield* extendSeries(repository, series, until, settings)
      if (outcome !== "done") yield* (yield* SeriesExtensionWake).wake
      if (outcome === "skipped") return series
      return Option.getOrElse(yield* repository.findById(series.id), () => series)
    })

  const nowAtClub = Effect.gen(function*() {
    const { settings } = yield* horizon
    return wallClockAt(settings.timeZone, yield* Clock.currentTimeMillis)
  })

  const seriesOf = (id: SeriesId) =>
    Effect.flatMap(
      repository.findById(id),
      (found) =>
        Option.isNone(found) ? Effect.fail(new EntityNotFound({ entity: "Series", id })) : Effect.succeed(found.value)
    )

  /**
   * Changes `series` from its first occurrence at or after `from` on. When the rule gives an
   * occurrence before that one, the series ends there and a new series continues it (its COUNT
   * what is left); otherwise the series changes itself. `time` moves every occurrence reached to
   * that time of day (overridden ones keep their own `creneau`, and only their place in the rule
   * moves). Refused: no occurrence to come (`field`), a time that would move the first one into
   * the past (`time`).
   */
  const changeFrom = (series: Series, from: LocalDateTime, change: SeriesChange, field: string) =>
    Effect.gen(function*() {
      const rule = parseRecurrenceRule(series.rrule) as RecurrenceRule
      const [first] = occurrencesOf(rule, series.start, { after: plusSeconds(from, -1), max: 1 })
      if (first === undefined || (series.endsBefore !== null && first >= series.endsBefore)) {
        return yield* new InvalidValue({
          field,
          reason: `the series has no occurrence to come${
            series.continuedBy === null ? "" : `; it continues as series ${series.continuedBy}`
          }`
        })
      }
      const moved = change.time === undefined ? first : `${first.slice(0, 10)}T${change.time}` as LocalDateTime
      const shiftSeconds = seconds(moved) - seconds(first)
      if (moved <= (yield* nowAtClub)) {
        return yield* new InvalidValue({ field: "time", reason: `the occurrence at ${first} would move into the past` })
      }
      const continuation = occurrencesOf(rule, series.start, { until: plusSeconds(first, -1), max: 1 }).length > 0
      const remaining = rule.count === undefined || !continuation
        ? undefined
        : occurrencesOf(rule, series.start, { after: plusSeconds(first, -1), max: rule.count }).length
      const { time: _time, ...values } = change
      const changed = yield* repository.rewrite(series.id, {
        from: first,
        shiftSeconds,
        continuation,
        start: continuation ? moved : plusSeconds(series.start, shiftSeconds),
        rrule: continuedRule(series.rrule, remaining, shiftSeconds),
        values
      })
      if (Option.isNone(changed)) return yield* new EntityNotFound({ entity: "Series", id: series.id })
      return changed.value
    })

  /**
   * Whose an occurrence is (the role table's `occurrenceCoach`): its session's coach for `one`, the
   * series' for `following` (it changes the series from there).
   */
  const occurrenceCoach = (
    series: Series,
    occurrence: { readonly sessionId: SessionId } | undefined,
    scope: "one" | "following"
  ) =>
    Effect.gen(function*() {
      if (scope === "following" || occurrence === undefined) {
        return {
          coachId: series.coachId,
          ...(yield* groupCoachesOf(invitations, series)),
          subject: `series ${series.id}`
        }
      }
      const session = yield* sessions.findById(occurrence.sessionId)
      const owner = Option.isSome(session) ? session.value : series
      return {
        coachId: owner.coachId,
        ...(yield* groupCoachesOf(invitations, owner)),
        subject: `session ${occurrence.sessionId}`
      }
    })

  return {
    /**
     * A series and its sessions up to the horizon. Refused with `InvalidValue` naming `rrule` for a
     * rule outside the subset, an UNTIL before the start, no occurrence, or more than
     * `maxOccurrences` occurrences (all of a rule that stops; up to the horizon otherwise).
     */
    create: traced("SeriesService.create")(function*(given: SeriesCreate) {
      const coachId = yield* coachFor(given.coachId)
      yield* authorize("series.create", { coachId, subject: "a series" })
      const input = { ...given, coachId }
      const { settings, until } = yield* horizon
      const rule = yield* checkedRule(input, until, settings)
      // The first occurrences that fit one transaction (issue 37); the server's extension writes
      // the rest in transactions of the same size, woken at once.
      const perWrite = occurrencesPerWrite(settings, peopleOf(input))
      const next = occurrencesOf(rule, input.start, { until, max: perWrite + 1 })
      const first = next.slice(0, perWrite)
      const done = next.length <= perWrite
      const created = yield* repository.create(input, first, done ? until : first.at(-1)!)
      if (!done) yield* (yield* SeriesExtensionWake).wake
      return created
    }),
    /**
     * Cancels the series from now on: its occurrences that have not started are deleted, and no
     * more are created. Past occurrences, and what is attached to them, stay as they are.
     */
    cancel: traced("SeriesService.cancel")(function*(id: SeriesId) {
      yield* authorize("series.cancel")
      const found = yield* repository.findById(id)
      yield* authorize(
        "series.cancel",
        Option.isSome(found)
          ? {
            coachId: found.value.coachId,
            ...(yield* groupCoachesOf(invitations, found.value)),
            subject: `series ${id}`
          }
          : {}
      )
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Series", id })
      const { settings } = yield* horizon
      const now = wallClockAt(settings.timeZone, yield* Clock.currentTimeMillis)
      yield* repository.endBefore(id, plusSeconds(now, 1))
    }),
    /**
     * Cancels one occurrence (`one`), or it and every later one (`following`, which ends the
     * series there). An occurrence that has started is not changed (`InvalidValue` naming
     * `sessionId`); a session that is not an occurrence of the series is `EntityNotFound`.
     */
    cancelOccurrence: traced("SeriesService.cancelOccurrence")(
      function*(id: SeriesId, sessionId: SessionId, scope: "one" | "following") {
        yield* authorize("occurrence.cancel")
        const found = yield* repository.findById(id)
        if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Series", id })
        const occurrence = found.value.occurrences.find((o) => o.sessionId === sessionId)
        yield* authorize("occurrence.cancel", yield* occurrenceCoach(found.value, occurrence, scope))
        if (occurrence === undefined) return yield* new EntityNotFound({ entity: "Occurrence", id: sessionId })
        const { settings } = yield* horizon
        const now = wallClockAt(settings.timeZone, yield* Clock.currentTimeMillis)
        if (occurrence.occurrenceStart <= now) {
          return yield* new InvalidValue({
            field: "sessionId",
            reason: `the occurrence at ${occurrence.occurrenceStart} has started; past occurrences are not changed`
          })
        }
        if (scope === "following") return yield* repository.endBefore(id, occurrence.occurrenceStart)
        // One: its time stays reached (`expandedUntil`), so it is never created again.
        yield* repository.cancelAt(id, occurrence.occurrenceStart)
      }
    ),
    /**
     * Changes the series from now on: every occurrence that has not started and is not overridden
     * takes the values given (`time`: the time of day). Answers the series that holds them: the
     * series itself when none of its occurrences is past, else a new one continuing it (the
     * series ends before them, its past occurrences untouched).
     */
    change: traced("SeriesService.change")(function*(id: SeriesId, change: SeriesChange) {
      const handOverOnly = handsOverOnly(change)
      yield* authorize("series.update", { handOverOnly })
      const series = yield* seriesOf(id)
      yield* authorize("series.update", {
        coachId: series.coachId,
        ...(yield* groupCoachesOf(invitations, series)),
        handOverOnly,
        subject: `series ${id}`
      })
      return yield* changeFrom(series, plusSeconds(yield* nowAtClub, 1), change, "id")
    }),
    /**
     * Changes one occurrence (`one`): the values given, `time` (its time of day) or `creneau` (any
     * wall-clock time); it becomes an exception that later changes of the series leave alone. Or
     * it and every later one (`following`), as `change` does from that occurrence (`creneau` is
     * refused there: give `time`). An occurrence that has started is not changed (`sessionId`).
     * Answers the series that holds the occurrence.
     */
    changeOccurrence: traced("SeriesService.changeOccurrence")(
      function*(id: SeriesId, sessionId: SessionId, scope: "one" | "following", change: OccurrenceChange) {
        const handOverOnly = handsOverOnly(change)
        yield* authorize("occurrence.update", { handOverOnly })
        const series = yield* seriesOf(id)
        const occurrence = series.occurrences.find((o) => o.sessionId === sessionId)
        const session = occurrence === undefined
          ? undefined
          : Option.getOrUndefined(yield* sessions.findById(sessionId))
        const owner = scope === "one" && session !== undefined ? session : series
        yield* authorize("occurrence.update", {
          coachId: owner.coachId,
          ...(yield* groupCoachesOf(invitations, owner)),
          handOverOnly,
          subject: scope === "one" ? `session ${sessionId}` : `series ${id}`
        })
        if (occurrence === undefined) return yield* new EntityNotFound({ entity: "Occurrence", id: sessionId })
        const now = yield* nowAtClub
        // Started by the rule's time, or by its own when it was moved earlier by itself.
        const held = session?.creneau ?? null
        const started = [occurrence.occurrenceStart, ...(held === null ? [] : [held])].find((time) => time <= now)
        if (started !== undefined) {
          return yield* new InvalidValue({
            field: "sessionId",
            reason: `the occurrence at ${started} has started; past occurrences are not changed`
          })
        }
        const { creneau, time, ...values } = change
        if (scope === "following") {
          if (creneau !== undefined) {
            return yield* new InvalidValue({
              field: "creneau",
              reason: "moves one occurrence only (scope=one); give time to change the following ones"
            })
          }
          return yield* changeFrom(series, occurrence.occurrenceStart, change, "sessionId")
        }
        const moved = creneau ??
          (time === undefined ? undefined : `${occurrence.occurrenceStart.slice(0, 10)}T${time}` as LocalDateTime)
        if (moved !== undefined && moved <= now) {
          return yield* new InvalidValue({
            field: creneau === undefined ? "time" : "creneau",
            reason: `${moved} is not to come; an occurrence moves to a time to come`
          })
        }
        yield* repository.changeOccurrence(id, sessionId, {
          ...values,
          ...(moved === undefined ? {} : { creneau: moved })
        })
        return yield* seriesOf(id)
      }
    ),
    /**
     * One page of the double bookings among the sessions (`SeriesRepository.conflicts`), at most
     * `limit` (`defaultPageLimit` when absent) after `cursor`, and the cursor of the next page.
     * One statement: a row more than the page is read to know whether another page follows.
     */
    conflicts: traced("SeriesService.conflicts")(
      function*(
        request: { readonly limit?: number | undefined; readonly cursor?: DoubleBookingCursor | undefined } = {}
      ) {
        yield* authorize("conflict.read")
        const limit = Math.min(request.limit ?? defaultPageLimit, maxPageLimit)
        const after = request.cursor === undefined
          ? undefined
          : yield* openCursor(cursors, request.cursor, readBookingPosition)
        const read = yield* repository.conflicts(after, limit + 1)
        const items = read.slice(0, limit)
        const last = items.at(-1)
        return new DoubleBookingPage({
          items,
          nextCursor: read.length > limit && last !== undefined
            ? cursors.seal(bookingPositionText(positionOfBooking(last)))
            : null
        })
      }
    ),
    /** The series with its occurrences, extended towards the horizon first (`extended`). */
    read: traced("SeriesService.read")(function*(id: SeriesId) {
      yield* authorize("series.read")
      const found = yield* repository.findById(id)
      if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Series", id })
      return yield* extended(found.value)
    })
  }
})

/** Recurring series (issue 17): their rules, and their occurrences as sessions. */
export class SeriesService extends Context.Service<SeriesService, Effect.Success<typeof make>>()(
  "@club/core/SeriesService"
) {
  static readonly layer = Layer.effect(SeriesService, make)
}
