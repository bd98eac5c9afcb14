import { Effect } from "effect"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import { wallClockAt } from "../shared/clubTime.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import { traced } from "../shared/traced.ts"
import { type RetainedKind, retainedKinds, type RetentionCutoff, RetentionRepository } from "./RetentionRepository.ts"
import { RetentionSettings } from "./RetentionSettings.ts"

const dayMs = 86_400_000

/** What one run purged of a kind: its rows and the batches (transactions) it took. */
export interface PurgedKind {
  readonly rows: number
  readonly batches: number
}

/** Where the period of `days` ends at `nowEpochMs`. */
export const retentionCutoff = (nowEpochMs: number, days: number, timeZone: string): RetentionCutoff => {
  const epochMs = nowEpochMs - days * dayMs
  return { epochMs, clubDay: wallClockAt(timeZone, epochMs).slice(0, 10) as CalendarDate }
}

const purgeKind = traced("Retention.purgeKind")(function*(kind: RetainedKind, cutoff: RetentionCutoff) {
  const repository = yield* RetentionRepository
  const { batchSize, pauseMs } = yield* RetentionSettings
  let rows = 0
  let batches = 0
  for (;;) {
    const deleted = yield* repository.purge(kind, cutoff, batchSize)
    rows += deleted
    batches++
    if (deleted < batchSize) return { rows, batches }
    // Each batch has ended its transaction; the pause lets the requests have the database.
    yield* Effect.sleep(pauseMs)
  }
})

/**
 * Purges every kind whose period is set of what is older than its period at `nowEpochMs`, batch
 * after batch until none is left, and answers what went, by kind (kinds not purged are absent).
 * Interrupted, it stops after the batch in flight (or with it undone): nothing is ever half purged.
 */
export const purgeExpired = traced("Retention.purgeExpired")(function*(nowEpochMs: number) {
  const { periodDays } = yield* RetentionSettings
  const { timeZone } = yield* ScheduleSettings
  const purged: Partial<Record<RetainedKind, PurgedKind>> = {}
  for (const kind of retainedKinds) {
    const days = periodDays[kind]
    if (days === null) continue
    purged[kind] = yield* purgeKind(kind, retentionCutoff(nowEpochMs, days, timeZone))
  }
  return purged
})
