import { Clock, Context, Effect, Layer, Option } from "effect"
import { plusDays, plusSeconds, wallClockAt } from "../domain/ClubTime.ts"
import { EntityNotFound, InvalidValue } from "../domain/Errors.ts"
import type { SeriesId, SessionId } from "../domain/Ids.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { authorize } from "../domain/Permissions.ts"
import { isBounded, occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "../domain/Recurrence.ts"
import type { Series, SeriesCreate } from "../domain/Series.ts"
import { SeriesRepository } from "../ports/SeriesRepository.ts"
import { traced } from "../tracing/traced.ts"
import { ScheduleSettings } from "./ScheduleSettings.ts"

const refuseRule = (reason: string) => new InvalidValue({ field: "rrule", reason })

const make = Effect.gen(function*() {
  const repository = yield* SeriesRepository

  /** The wall-clock time up to which occurrences exist: now at the club, plus the horizon. */
  const horizon = Effect.gen(function*() {
    const settings = yield* ScheduleSettings
    const now = yield* Clock.currentTimeMillis
    return { settings, until: plusDays(wallClockAt(settings.timeZone, now), settings.horizonWeeks * 7) }
  })

  /** The rule of a series, checked: in the subset, ending after its start, within the bound on occurrences. */
  const checkedRule = (input: SeriesCreate, until: LocalDateTime, maxOccurrences: number) =>
    Effect.gen(function*() {
      const rule = parseRecurrenceRule(input.rrule)
      if (typeof rule === "string") return yield* refuseRule(rule)
      if (rule.until !== undefined && rule.until < input.start) {
        return yield* refuseRule(`UNTIL (${rule.until}) is before the start (${input.start})`)
      }
      // A rule that stops is counted whole; one that does not, up to the horizon.
      const counted = occurrencesOf(rule, input.start, {
        until: isBounded(rule) ? undefined : until,
        max: maxOccurrences + 1
      })
      if (counted.length > maxOccurrences) {
        return yield* refuseRule(`the series would create more than ${maxOccurrences} occurrences`)
      }
      if (counted.length === 0) return yield* refuseRule("the rule gives no occurrence from the start")
      return rule
    })

  /** Creates the occurrences the horizon has reached since the series was last extended. */
  const extended = (series: Series) =>
    Effect.gen(function*() {
      const { settings, until } = yield* horizon
      if (series.expandedUntil >= until) return series
      const rule = parseRecurrenceRule(series.rrule) as RecurrenceRule
      const occurrences = occurrencesOf(rule, series.start, {
        after: series.expandedUntil,
        until,
        max: settings.maxOccurrences
      })
      yield* repository.extend(series.id, occurrences, until)
      return Option.getOrElse(yield* repository.findById(series.id), () => series)
    })

  return {
    /**
     * A series and its sessions up to the horizon. Refused with `InvalidValue` naming `rrule` for a
     * rule outside the subset, an UNTIL before the start, no occurrence, or more than
     * `maxOccurrences` occurrences (all of a rule that stops; up to the horizon otherwise).
     */
    create: traced("SeriesService.create")(function*(input: SeriesCreate) {
      yield* authorize("series.create")
      const { settings, until } = yield* horizon
      const rule = yield* checkedRule(input, until, settings.maxOccurrences)
      const occurrences = occurrencesOf(rule, input.start, { until, max: settings.maxOccurrences })
      return yield* repository.create(input, occurrences, until)
    }),
    /**
     * Cancels the series from now on: its occurrences that have not started are deleted, and no
     * more are created. Past occurrences, and what is attached to them, stay as they are.
     */
    cancel: traced("SeriesService.cancel")(function*(id: SeriesId) {
      yield* authorize("series.cancel")
      const found = yield* repository.findById(id)
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
        yield* authorize("series.cancel")
        const found = yield* repository.findById(id)
        if (Option.isNone(found)) return yield* new EntityNotFound({ entity: "Series", id })
        const occurrence = found.value.occurrences.find((o) => o.sessionId === sessionId)
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
    /** Every double booking among the sessions (`SeriesRepository.conflicts`). */
    conflicts: traced("SeriesService.conflicts")(function*() {
      yield* authorize("conflict.read")
      return yield* repository.conflicts()
    }),
    /** The series with its occurrences, extended to the horizon first. */
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
