import { Clock, Context, Effect } from "effect"
import { plusDays, wallClockAt } from "../shared/clubTime.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import { occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "./Recurrence.ts"
import type { Series } from "./Series.ts"
import { SeriesRepository } from "./SeriesRepository.ts"
import { occurrencesPerWrite, peopleOf, ScheduleSettings } from "./ScheduleSettings.ts"

/** The wall-clock time up to which a series' occurrences exist now: now at the club, plus the horizon. */
export const currentHorizon = Effect.gen(function*() {
  const settings = yield* ScheduleSettings
  const now = yield* Clock.currentTimeMillis
  return { settings, until: plusDays(wallClockAt(settings.timeZone, now), settings.horizonWeeks * 7) }
})

/**
 * Creates the next occurrences of `series` after its `expandedUntil` up to `until`, at most as
 * many as one transaction writes (`occurrencesPerWrite`), and moves `expandedUntil` to the last
 * one created, or to `until` when none is left. Two instances doing it at once create each
 * occurrence once, and a series another writer holds is left to it (the store's rules,
 * `SeriesRepository.extend`). Answers `"done"` when it reached `until`, `"more"` when occurrences
 * are left, `"skipped"` when it wrote nothing because the series was held.
 */
export const extendSeries = (
  repository: SeriesRepository["Service"],
  series: Series,
  until: LocalDateTime,
  settings: ScheduleSettings
) => {
  const rule = parseRecurrenceRule(series.rrule) as RecurrenceRule
  const perWrite = occurrencesPerWrite(settings, peopleOf(series))
  const next = occurrencesOf(rule, series.start, { after: series.expandedUntil, until, max: perWrite + 1 })
  const batch = next.slice(0, perWrite)
  const done = next.length <= perWrite
  return Effect.map(
    repository.extend(series.id, batch, done ? until : batch.at(-1)!),
    (extended): "done" | "more" | "skipped" => !extended ? "skipped" : done ? "done" : "more"
  )
}

/**
 * One round of the server's periodic extension (issue 17): at most `batch` series the horizon has
 * moved past, those extended longest ago first, each by one transaction's worth of occurrences
 * (`extendSeries`). Not an operation of any role: the server runs it on its own, for every series,
 * read or not. A series another writer holds (a reader's batch, another instance's extension, a
 * change) is skipped, not waited for (issue 37): it stays due for a later round. Answers what is
 * left: `"more"` when this round extended something and was full or left occurrences over (another
 * round at once), `"held"` when only series others hold are left (another round shortly, once they
 * let go), `"done"` otherwise.
 */
export const extendDueSeries = (batch: number): Effect.Effect<"more" | "held" | "done", never, SeriesRepository> =>
  Effect.gen(function*() {
    const { settings, until } = yield* currentHorizon
    const repository = yield* SeriesRepository
    const due = yield* repository.dueForExtension(until, batch)
    let extended = false
    let held = false
    let more = due.length === batch
    for (const series of due) {
      const outcome = yield* extendSeries(repository, series, until, settings)
      if (outcome === "skipped") held = true
      else extended = true
      if (outcome === "more") more = true
    }
    // A round that extended nothing would find the same series held again if it followed at once.
    return extended && more ? "more" : held ? "held" : "done"
  }).pipe(Effect.withSpan("SeriesExtension.extendDueSeries"))

/**
 * Wakes the server's extension for a round now rather than at its next hour, so that a series
 * created with occurrences left over (more than one transaction's worth) gets them soon: `wake`
 * asks, `woken` waits for an ask. By default nothing wakes: the next round, or a read, creates them.
 */
export const SeriesExtensionWake = Context.Reference<{
  readonly wake: Effect.Effect<void>
  readonly woken: Effect.Effect<void>
}>("@club/core/SeriesExtensionWake", { defaultValue: () => ({ wake: Effect.void, woken: Effect.never }) })
