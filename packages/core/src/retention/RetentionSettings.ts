import { Context } from "effect"
import type { RetainedKind } from "./RetentionRepository.ts"

/** How long each kind is kept, and how the purge goes about it (RETENTION_* variables, docs/CONFIGURATION.md). */
export interface RetentionSettings {
  /** Days a kind is kept (from the instant or day its entry in `retainedKinds` says); null: never purged. */
  readonly periodDays: Readonly<Record<RetainedKind, number | null>>
  /** Rows deleted per batch: each batch is one short transaction. */
  readonly batchSize: number
  /** The pause between two batches, which leaves the database (the embedded one: its only connection) to the requests. */
  readonly pauseMs: number
}

export const defaultRetentionSettings: RetentionSettings = {
  periodDays: {
    outboxEvents: 90,
    webhookAttempts: 30,
    idempotencyKeys: 0,
    // At least a day: far beyond the failure window (LOGIN_FAILURE_WINDOW_SECONDS), which must fit in it.
    loginAttempts: 1,
    // Two seasons of a club's history.
    endedMemberships: 730,
    notices: 180,
    // A year of who changed what: a season and its aftermath.
    auditEntries: 365
  },
  batchSize: 1000,
  pauseMs: 50
}

export const RetentionSettings = Context.Reference<RetentionSettings>("@club/core/RetentionSettings", {
  defaultValue: () => defaultRetentionSettings
})
