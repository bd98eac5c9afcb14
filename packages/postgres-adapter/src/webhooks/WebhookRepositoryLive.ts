import {
  type ClaimedDelivery,
  DeliveryAttempt,
  type DeliveryOutcome,
  type EventId,
  traced,
  Webhook,
  type WebhookCreate,
  type WebhookId,
  WebhookRepository
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { auditedWrite, transaction } from "../shared/transaction.ts"

const instant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

const decodeWebhook = Schema.decodeUnknownEffect(Webhook)
const decodeWebhooks = Schema.decodeUnknownEffect(Schema.Array(Webhook))
const decodeAttempts = Schema.decodeUnknownEffect(Schema.Array(DeliveryAttempt))

interface ClaimRow {
  readonly webhook_id: number
  readonly url: string
  readonly secret: string
  readonly event_id: number
  readonly session_id: number | null
  readonly group_id: number | null
  readonly attempts: number
  readonly body: string
}

export const WebhookRepositoryLive = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /**
     * An instant given in epoch milliseconds, bound as a parameter: written into the text, every
     * poll was a statement never seen before, parsed again and taking a place in the connection's
     * cache of prepared statements from the ones requests use.
     */
    const at = (epochMs: number) => sql`to_timestamp(${epochMs}::float8 / 1000)`

    /**
     * Registrations one at a time (a lock of their own), so that two at once cannot both see room
     * for one more; the count is read after the lock, in a statement of its own.
     */
    const register = traced("WebhookRepository.register")(function*(input: WebhookCreate, max: number) {
      const rows = yield* transaction(sql)(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext('club.webhooks.register'))`
        return yield* sql`INSERT INTO webhooks (url, secret)
          SELECT ${input.url}, ${input.secret} WHERE (SELECT count(*) FROM webhooks) < ${max}
          RETURNING id::float8 AS id, url`
      }))
      return rows.length === 0 ? Option.none() : Option.some(yield* Effect.orDie(decodeWebhook(rows[0])))
    }, dieOnInfrastructureError)

    const list = traced("WebhookRepository.list")(function*() {
      return yield* Effect.orDie(decodeWebhooks(yield* sql`SELECT id::float8 AS id, url FROM webhooks ORDER BY id`))
    }, dieOnInfrastructureError)

    const remove = traced("WebhookRepository.remove")(function*(id: WebhookId) {
      const rows = yield* auditedWrite(sql)(sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`)
      return rows.length > 0
    }, dieOnInfrastructureError)

    const attempts = traced("WebhookRepository.attempts")(function*(id: WebhookId, limit: number) {
      const [row] = yield* sql<{ attempts: unknown }>`SELECT CASE WHEN EXISTS (SELECT 1 FROM webhooks WHERE id = ${id})
          THEN COALESCE((SELECT json_agg(json_build_object('eventId', a.event_id, 'sessionId', a.session_id,
              'groupId', a.group_id,
              'attempt', a.attempt, 'at', ${sql.literal(instant("a.at"))}, 'statusCode', a.status_code,
              'delivered', a.delivered, 'error', a.error) ORDER BY a.id DESC)
            FROM (SELECT * FROM webhook_attempts WHERE webhook_id = ${id} ORDER BY id DESC LIMIT ${limit}) a), '[]'::json)
          END AS attempts`
      return row!.attempts === null
        ? Option.none()
        : Option.some(yield* Effect.orDie(decodeAttempts(row!.attempts)))
    }, dieOnInfrastructureError)

    const replay = traced("WebhookRepository.replay")(function*(id: WebhookId, fromEventId: EventId) {
      const [row] = yield* sql<{ known: boolean; count: number }>`WITH replayed AS (
          UPDATE webhook_deliveries SET pending = true, dead = false, due_at = '-infinity'
          WHERE webhook_id = ${id} AND event_id >= ${fromEventId} RETURNING 1)
        SELECT EXISTS (SELECT 1 FROM webhooks WHERE id = ${id}) AS known, (SELECT count(*)::int FROM replayed) AS count`
      return row!.known ? Option.some(row!.count) : Option.none()
    }, dieOnInfrastructureError)

    /**
     * One statement: the first due delivery, in event order, whose stream (its session, its group,
     * or the club's for an event that names neither) has no earlier event waiting for the same webhook, whose webhook has no attempt in flight (a live lease on any of
     * its deliveries) and is not parked after a failure (issue 37), and which no live lease holds, locked with `SKIP LOCKED` (a
     * worker choosing at the same moment passes over it, and finds the next one of that session
     * not due, since this one still waits), then leased.
     */
    const claim = traced("WebhookRepository.claim")(function*(owner: string, nowEpochMs: number, leaseMs: number) {
      const now = at(nowEpochMs)
      const rows = yield* sql<ClaimRow>`UPDATE webhook_deliveries d
        SET lease_owner = ${owner}, leased_until = ${at(nowEpochMs + leaseMs)}, attempts = d.attempts + 1
        FROM (
          SELECT c.webhook_id, c.event_id FROM webhook_deliveries c
          WHERE c.pending AND c.due_at <= ${now} AND (c.leased_until IS NULL OR c.leased_until <= ${now})
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
              WHERE e.webhook_id = c.webhook_id AND e.session_id = c.session_id AND e.pending AND e.event_id < c.event_id)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries g
              WHERE g.webhook_id = c.webhook_id AND g.group_id = c.group_id AND g.pending AND g.event_id < c.event_id
                AND g.group_id IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries k
              WHERE k.webhook_id = c.webhook_id AND c.session_id IS NULL AND c.group_id IS NULL
                AND k.session_id IS NULL AND k.group_id IS NULL AND k.pending AND k.event_id < c.event_id)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries f
              WHERE f.webhook_id = c.webhook_id AND f.leased_until IS NOT NULL AND f.leased_until > ${now})
            AND NOT EXISTS (SELECT 1 FROM webhooks p WHERE p.id = c.webhook_id AND p.parked_until > ${now})
          ORDER BY c.event_id
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        ) chosen, webhooks w, attendance_events ev
        WHERE d.webhook_id = chosen.webhook_id AND d.event_id = chosen.event_id AND w.id = d.webhook_id AND ev.id = d.event_id
        RETURNING d.webhook_id::float8 AS webhook_id, w.url, w.secret, d.event_id::float8 AS event_id,
          d.session_id::float8 AS session_id, d.group_id::float8 AS group_id, d.attempts,
          CASE WHEN ev.session_id IS NOT NULL
            THEN json_build_object('id', ev.id, 'type', ev.type, 'sessionId', ev.session_id,
              'occurredAt', ${sql.literal(instant("ev.occurred_at"))}, 'data', ev.data)
            WHEN ev.group_id IS NOT NULL
            THEN json_build_object('id', ev.id, 'type', ev.type, 'groupId', ev.group_id,
              'occurredAt', ${sql.literal(instant("ev.occurred_at"))}, 'data', ev.data)
            ELSE json_build_object('id', ev.id, 'type', ev.type,
              'occurredAt', ${sql.literal(instant("ev.occurred_at"))}, 'data', ev.data)
          END::text AS body`
      const row = rows[0]
      if (row === undefined) return Option.none<ClaimedDelivery>()
      return Option.some<ClaimedDelivery>({
        webhookId: Number(row.webhook_id) as WebhookId,
        url: row.url,
        secret: row.secret,
        eventId: Number(row.event_id) as EventId,
        sessionId: row.session_id === null ? null : Number(row.session_id),
        groupId: row.group_id === null ? null : Number(row.group_id),
        attempt: row.attempts,
        body: row.body
      })
    }, dieOnInfrastructureError)

    const settle = traced("WebhookRepository.settle")(
      function*(owner: string, claimed: ClaimedDelivery, outcome: DeliveryOutcome) {
        yield* sql`WITH logged AS (
            INSERT INTO webhook_attempts (webhook_id, event_id, session_id, group_id, attempt, at, status_code,
              delivered, error)
            SELECT ${claimed.webhookId}, ${claimed.eventId}, ${claimed.sessionId}::bigint, ${claimed.groupId}::bigint,
              ${claimed.attempt},
              ${at(outcome.atEpochMs)}, ${outcome.statusCode}::int, ${outcome.delivered}, ${outcome.error}
            WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ${claimed.webhookId}))
          , parked AS (
            UPDATE webhooks SET parked_until = CASE WHEN ${outcome.delivered} THEN NULL
              ELSE ${at(outcome.retryAtEpochMs)} END
            WHERE id = ${claimed.webhookId})
          UPDATE webhook_deliveries SET lease_owner = NULL, leased_until = NULL,
            pending = pending AND NOT ${outcome.delivered} AND NOT ${outcome.final === true},
            dead = ${outcome.final === true},
            due_at = CASE WHEN ${outcome.delivered} THEN due_at ELSE ${at(outcome.retryAtEpochMs)} END
          WHERE webhook_id = ${claimed.webhookId} AND event_id = ${claimed.eventId} AND lease_owner = ${owner}`
      },
      dieOnInfrastructureError
    )

    return WebhookRepository.of({ register, list, remove, attempts, replay, claim, settle })
  })
)
