import { type RetainedKind, type RetentionCutoff, RetentionRepository, traced } from "@club/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { countFromRow } from "../shared/countRow.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { autocommitWrite } from "../shared/transaction.ts"

/**
 * One table's purge: a statement deleting at most `limit` of its rows older than the cutoff,
 * oldest first, that answers `count`. Each is `DELETE ... WHERE key IN (SELECT ... ORDER BY age
 * LIMIT n FOR UPDATE SKIP LOCKED)`: the rows another purge (or a write) holds are passed over,
 * never waited for, so two instances' purges delete each row once and never wait on each other.
 */
type TablePurge = (
  sql: SqlClient.SqlClient,
  cutoff: RetentionCutoff,
  limit: number
) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>

/**
 * Each kind's tables, in the order they are purged. A kind (notices, audit entries) is added here
 * as one entry, once its table exists; `retainedKinds` in core lists it.
 */
const purges: Record<RetainedKind, ReadonlyArray<TablePurge>> = {
  // Never an event with a delivery still pending: those wait for their delivery or their death.
  // Its deliveries, done or dead, go with it (ON DELETE CASCADE).
  outboxEvents: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM attendance_events WHERE id IN (
        SELECT e.id FROM attendance_events e
        WHERE e.occurred_at < to_timestamp(${cutoff.epochMs}::float8 / 1000)
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.pending)
        ORDER BY e.occurred_at LIMIT ${limit} FOR UPDATE OF e SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`],
  webhookAttempts: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM webhook_attempts WHERE id IN (
        SELECT id FROM webhook_attempts WHERE at < to_timestamp(${cutoff.epochMs}::float8 / 1000)
        ORDER BY at LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`],
  idempotencyKeys: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM idempotency_keys WHERE (user_id, key) IN (
        SELECT user_id, key FROM idempotency_keys WHERE expires_at_ms < ${BigInt(cutoff.epochMs)}
        ORDER BY expires_at_ms LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`],
  loginAttempts: [
    (sql, cutoff, limit) =>
      sql`WITH gone AS (DELETE FROM login_throttle WHERE key IN (
          SELECT key FROM login_throttle WHERE last_failure_at_ms < ${BigInt(cutoff.epochMs)}
          ORDER BY last_failure_at_ms LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM gone`,
    // The table before login_throttle (migration 0007), no longer written: what is left of it goes too.
    (sql, cutoff, limit) =>
      sql`WITH gone AS (DELETE FROM login_failures WHERE id IN (
          SELECT id FROM login_failures WHERE failed_at_ms < ${BigInt(cutoff.epochMs)}
          ORDER BY failed_at_ms LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  ],
  // Replies, marks and events name the session and the athlete, never the membership: they stay.
  endedMemberships: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM memberships WHERE id IN (
        SELECT id FROM memberships WHERE until_date < ${cutoff.clubDay}::date
        ORDER BY until_date LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`],
  // A pending notice waits for its send; a reminder's dedupe key goes with it, which is harmless: its
  // moment is long past the reminder window, so the scheduler never writes it again.
  notices: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM notices WHERE id IN (
        SELECT id FROM notices WHERE status <> 'pending' AND created_at < to_timestamp(${cutoff.epochMs}::float8 / 1000)
        ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`],
  // Never an entry younger than the floor the database keeps (decision 0245): its trigger would refuse it.
  auditEntries: [(sql, cutoff, limit) =>
    sql`WITH gone AS (DELETE FROM audit_entries WHERE id IN (
        SELECT id FROM audit_entries
        WHERE at < LEAST(to_timestamp(${cutoff.epochMs}::float8 / 1000),
          now() - make_interval(days => (SELECT minimum_days FROM audit_settings)))
        ORDER BY at LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
      SELECT count(*)::int AS count FROM gone`]
}

/**
 * The purge in the database: each table's batch one statement, which commits by itself (a short
 * transaction holding its rows' locks only while it deletes them), outside any other transaction.
 */
export const RetentionRepositoryLive = Layer.effect(
  RetentionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const purge = traced("RetentionRepository.purge")(
      function*(kind: RetainedKind, cutoff: RetentionCutoff, limit: number) {
        let deleted = 0
        for (const table of purges[kind]) {
          if (deleted >= limit) break
          const [row] = yield* autocommitWrite(sql)(table(sql, cutoff, limit - deleted))
          deleted += row === undefined ? 0 : countFromRow(row).count
        }
        return deleted
      },
      dieOnInfrastructureError
    )
    return RetentionRepository.of({ purge })
  })
)
