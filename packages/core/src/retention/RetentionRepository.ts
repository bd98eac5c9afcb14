import { Context, type Effect } from "effect"
import type { CalendarDate } from "../shared/LocalDateTime.ts"

/**
 * What the service purges by itself once its period is over (docs/privacy.md): each kind is one
 * entry here, one setting and one purge in each store. A kind added here (notices, audit entries)
 * is refused by the compiler until every store and the settings name it.
 *
 * - `outboxEvents`: events whose every delivery is done or given up (dead), never one still pending.
 * - `webhookAttempts`: the delivery log.
 * - `idempotencyKeys`: keys past their expiry (IDEMPOTENCY_KEY_RETENTION_SECONDS); the period runs from it.
 * - `loginAttempts`: login throttling keys, from their last failure.
 * - `endedMemberships`: memberships whose last day is over; the replies, marks and events of the days
 *   they covered are kept (they name the session and the athlete, not the membership).
 * - `notices`: email notices settled (sent, failed or suppressed), from when they were written; a
 *   notice still pending is never purged.
 * - `auditEntries`: the audit trail, from the write; never before the floor the database keeps
 *   (`audit_settings.minimum_days`, decision 0245).
 */
export const retainedKinds = [
  "outboxEvents",
  "webhookAttempts",
  "idempotencyKeys",
  "loginAttempts",
  "endedMemberships",
  "notices",
  "auditEntries"
] as const

export type RetainedKind = typeof retainedKinds[number]

/**
 * Where a kind's period ends: what is older goes. A row's age is told by an instant (an event's
 * time, an attempt's, a key's expiry, a key's last failure) or, for what is kept as club days (a
 * membership's last day), by the club's day: `clubDay` is the day of `epochMs` in the club's zone,
 * and a membership goes once its last day is before it.
 */
export interface RetentionCutoff {
  readonly epochMs: number
  readonly clubDay: CalendarDate
}

/**
 * The purge of what is past its retention, a batch at a time, so that a purge never holds a lock
 * long nor keeps a connection from the requests: each call is its own short transaction(s).
 */
export class RetentionRepository extends Context.Service<RetentionRepository, {
  /**
   * Deletes at most `limit` rows of `kind` older than `cutoff`, oldest first, and answers how many
   * it deleted: fewer than `limit` means none is left. Rows another purge is deleting at the same
   * time are passed over, never waited for: of concurrent purges, on any instance, each row is
   * deleted by exactly one, and none fails or waits for another. A kind held in several tables
   * (login attempts: the throttle and its predecessor) takes from each in turn, `limit` in all.
   */
  purge(kind: RetainedKind, cutoff: RetentionCutoff, limit: number): Effect.Effect<number>
}>()("@club/core/RetentionRepository") {}
