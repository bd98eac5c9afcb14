import { Clock, Effect } from "effect"
import { plusDays, wallClockAt } from "../domain/ClubTime.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "../domain/Recurrence.ts"
import type { Series } from "../domain/Series.ts"
import { SeriesRepository } from "../ports/SeriesRepository.ts"
import { ScheduleSettings } from "./ScheduleSettings.ts"

/** The wall-clock time up to which a series' occurrences exist now: now at the club, plus the horizon. */
export const currentHorizon = Effect.gen(function*() {
  const settings = yield* ScheduleSettings
  const now = yield* Clock.currentTimeMillis
  return { settings, until: plusDays(wallClockAt(settings.timeZone, now), settings.horizonWeeks * 7) }
})

/**
 * Creates the occurrences of `series` after its `expandedUntil` up to `until`, and moves
 * `expandedUntil` there. Two instances doing it at once create each occurrence once (the store's
 * rule, `SeriesRepository.extend`).
 */
export const extendSeries = (
  repository: SeriesRepository["Service"],
  series: Series,
  until: LocalDateTime,
  maxOccurrences: number
) => {
  const rule = parseRecurrenceRule(series.rrule) as RecurrenceRule
  const occurrences = occurrencesOf(rule, series.start, { after: series.expandedUntil, until, max: maxOccurrences })
  return repository.extend(series.id, occurrences, until)
}

/**
 * One round of the server's periodic extension (issue 17): at most `batch` series the horizon has
 * moved past, those extended longest ago first, each extended in its own transaction. Not an
 * operation of any role: the server runs it on its own, for every series, read or not. Answers how
 * many series it extended; a full batch means more may be due.
 */
export const extendDueSeries = (batch: number) =>
  Effect.gen(function*() {
    const { settings, until } = yield* currentHorizon
    const repository = yield* SeriesRepository
    const due = yield* repository.dueForExtension(until, batch)
    for (const series of due) yield* extendSeries(repository, series, until, settings.maxOccurrences)
    return due.length
  }).pipe(Effect.withSpan("SeriesExtension.extendDueSeries"))
