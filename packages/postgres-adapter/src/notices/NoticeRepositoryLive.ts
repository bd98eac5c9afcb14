import {
  type ClaimedNotice,
  noticeKinds,
  type NoticeOutcome,
  NoticeRepository,
  type ReminderTiming,
  traced
} from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { invitedAthletes } from "../membership/invitedAthletes.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { recipientsOf } from "./recipients.ts"

const ClaimedRow = Schema.Struct({
  id: Schema.Number,
  kind: Schema.Literals(noticeKinds),
  attempt: Schema.Number,
  recipientUserId: Schema.Number,
  recipientName: Schema.String,
  recipientEmail: Schema.String,
  athleteId: Schema.Number,
  athleteName: Schema.String,
  forGuardian: Schema.Boolean,
  sessionId: Schema.Number,
  sessionTitle: Schema.String,
  sessionStart: Schema.NullOr(Schema.String),
  athleteReplied: Schema.Boolean,
  forSeries: Schema.Boolean,
  previousStart: Schema.NullOr(Schema.String),
  repliesClose: Schema.NullOr(Schema.String)
})
const decodeClaimed = Schema.decodeUnknownEffect(Schema.Array(ClaimedRow))

/**
 * `NoticeRepository` on PostgreSQL. Every instant is the database's `now()`: one clock for every
 * instance, which a jump of a host's clock does not move.
 */
export const NoticeRepositoryLive = Layer.effect(
  NoticeRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ms = (value: number) => sql`(${value}::float8 * interval '1 millisecond')`

    /**
     * One statement: the first `limit` due pending notices no live lease holds, in due order, locked
     * `SKIP LOCKED` (an instance claiming at the same moment passes over them), leased and counted as
     * an attempt, with the facts their text needs read as they are now.
     */
    const claim = traced("NoticeRepository.claim")(function*(owner: string, leaseMs: number, limit: number) {
      const wallClock = (value: Fragment) => sql`to_char(${value}, 'YYYY-MM-DD"T"HH24:MI:SS')`
      const rows = yield* sql`UPDATE notices n
        SET lease_owner = ${owner}, leased_until = now() + ${ms(leaseMs)}, attempts = n.attempts + 1
        FROM (
          SELECT c.id, c.user_id, c.athlete_id, c.session_id, c.event_id FROM notices c
          WHERE c.status = 'pending' AND c.due_at <= now() AND (c.leased_until IS NULL OR c.leased_until <= now())
          ORDER BY c.due_at, c.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ) chosen
          JOIN users u ON u.id = chosen.user_id
          JOIN athletes a ON a.id = chosen.athlete_id
          -- A cancellation's session is gone: its notice keeps its title and start.
          LEFT JOIN sessions s ON s.id = chosen.session_id
          LEFT JOIN attendance_events e ON e.id = chosen.event_id
        WHERE n.id = chosen.id
        RETURNING n.id::float8 AS id, n.kind, n.attempts AS attempt, u.id::float8 AS "recipientUserId",
          u.name AS "recipientName", COALESCE(u.email, '') AS "recipientEmail", a.id::float8 AS "athleteId",
          COALESCE(a.name, '') AS "athleteName", u.athlete_id IS DISTINCT FROM n.athlete_id AS "forGuardian",
          COALESCE(n.session_id, n.former_session_id)::float8 AS "sessionId",
          COALESCE(s.name, n.session_title, '') AS "sessionTitle",
          ${wallClock(sql`COALESCE(s.creneau, n.session_start)`)} AS "sessionStart",
          EXISTS (SELECT 1 FROM session_replies r WHERE r.session_id = n.session_id AND r.athlete_id = n.athlete_id)
            AS "athleteReplied",
          COALESCE(e.type = 'seriesCreated', false) AS "forSeries",
          CASE WHEN e.type = 'sessionChanged' AND e.data->>'previousCreneau' IS DISTINCT FROM e.data->>'creneau'
            THEN e.data->>'previousCreneau' END AS "previousStart",
          ${
        wallClock(
          sql`COALESCE((SELECT sa.reply_cutoff FROM session_attendance sa WHERE sa.session_id = n.session_id), s.creneau)`
        )
      } AS "repliesClose"`
      return (yield* Effect.orDie(decodeClaimed(rows))) as ReadonlyArray<ClaimedNotice>
    }, dieOnInfrastructureError)

    const settle = traced("NoticeRepository.settle")(function*(owner: string, id: number, outcome: NoticeOutcome) {
      const status = outcome._tag === "retry" ? "pending" : outcome._tag
      const error = outcome._tag === "retry" || outcome._tag === "failed"
        ? outcome.error
        : outcome._tag === "suppressed"
        ? outcome.reason
        : null
      const delay = outcome._tag === "retry" ? outcome.delayMs : 0
      yield* sql`UPDATE notices SET status = ${status}, lease_owner = NULL, leased_until = NULL,
          last_error = COALESCE(${error}::text, last_error),
          sent_at = CASE WHEN ${status} = 'sent' THEN now() END,
          due_at = CASE WHEN ${status} = 'pending' THEN now() + ${ms(delay)} ELSE due_at END
        WHERE id = ${id} AND lease_owner = ${owner} AND status = 'pending'`
    }, dieOnInfrastructureError)

    const release = traced("NoticeRepository.release")(function*(owner: string, id: number) {
      yield* sql`UPDATE notices SET lease_owner = NULL, leased_until = NULL, attempts = attempts - 1
        WHERE id = ${id} AND lease_owner = ${owner} AND status = 'pending'`
    }, dieOnInfrastructureError)

    /**
     * One statement. The sessions whose reply cut-off (`session_attendance.reply_cutoff`, else the
     * start) is still ahead and whose reminder moment (the cut-off less `leadMs`) has come, but not
     * longer ago than `windowMs`: read by `creneau` for those without a cut-off of their own, by the
     * cut-off for the others, both wall-clock times at the club turned to the database's clock in
     * the club's zone. Their invitees who have not replied, told through their users and guardians,
     * the reminders not yet written first excluded and then cut to `limit`, so a backlog is written
     * over several calls and never re-read as a full batch of duplicates.
     */
    const writeReminders = traced("NoticeRepository.writeReminders")(function*(timing: ReminderTiming) {
      const local = sql`(now() AT TIME ZONE ${timing.timeZone})`
      const from = sql`(${local} + ${ms(timing.leadMs)} - ${ms(timing.windowMs)})`
      const until = sql`(${local} + ${ms(timing.leadMs)})`
      const rows = yield* sql`WITH due AS (
          SELECT s.id AS session_id FROM sessions s
          WHERE s.creneau > ${from} AND s.creneau <= ${until} AND s.creneau > ${local}
            AND NOT EXISTS (SELECT 1 FROM session_attendance a WHERE a.session_id = s.id AND a.reply_cutoff IS NOT NULL)
          UNION
          SELECT a.session_id FROM session_attendance a JOIN sessions s ON s.id = a.session_id
          WHERE a.reply_cutoff > ${from} AND a.reply_cutoff <= ${until} AND a.reply_cutoff > ${local}
            AND s.creneau IS NOT NULL),
        invitee AS (
          SELECT d.session_id, i.athlete_id FROM due d CROSS JOIN LATERAL (${invitedAthletes(sql, sql`d.session_id`)}) i
          WHERE NOT EXISTS (SELECT 1 FROM session_replies r
            WHERE r.session_id = d.session_id AND r.athlete_id = i.athlete_id)),
        recipient AS (
          SELECT DISTINCT ON (v.session_id, r.user_id) v.session_id, v.athlete_id, r.user_id,
            'reminder:' || v.session_id || ':' || r.user_id AS dedupe_key
          FROM invitee v CROSS JOIN LATERAL (${recipientsOf(sql, sql`v.athlete_id`)}) r
          ORDER BY v.session_id, r.user_id, r.guardian, v.athlete_id),
        fresh AS (
          SELECT * FROM recipient r WHERE NOT EXISTS (SELECT 1 FROM notices n WHERE n.dedupe_key = r.dedupe_key)
          ORDER BY r.session_id, r.user_id
          LIMIT ${timing.limit})
        INSERT INTO notices (dedupe_key, user_id, athlete_id, session_id, kind)
        SELECT dedupe_key, user_id, athlete_id, session_id, 'reminder' FROM fresh
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING 1`
      return rows.length
    }, dieOnInfrastructureError)

    /**
     * One statement. The promotion events of the last `windowMs` (the outbox's `occurred_at` index)
     * of sessions still there, none of whose notices exist: those the refill trigger wrote. Their
     * athlete told through its user and guardians, as `writeEvents` does; the dedupe key
     * (`<event id>:<user id>`) makes a second look, or another instance's, write nothing more.
     */
    const writeMissedPromotions = traced("NoticeRepository.writeMissedPromotions")(
      function*(windowMs: number, limit: number) {
        const rows = yield* sql`WITH missed AS (
            SELECT e.id AS event_id, e.session_id, (e.data->>'athleteId')::bigint AS athlete_id
            FROM attendance_events e
            WHERE e.type = 'promotion' AND e.occurred_at > now() - ${ms(windowMs)}
              AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = e.session_id)
              AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.event_id = e.id)
            ORDER BY e.id
            LIMIT ${limit}),
          recipient AS (
            SELECT DISTINCT ON (m.event_id, r.user_id) m.event_id, m.session_id, m.athlete_id, r.user_id
            FROM missed m CROSS JOIN LATERAL (${recipientsOf(sql, sql`m.athlete_id`)}) r
            JOIN athletes a ON a.id = m.athlete_id
            ORDER BY m.event_id, r.user_id, r.guardian)
          INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, kind)
          SELECT event_id || ':' || user_id, event_id, user_id, athlete_id, session_id, 'promoted' FROM recipient
          ON CONFLICT (dedupe_key) DO NOTHING
          RETURNING 1`
        return rows.length
      },
      dieOnInfrastructureError
    )

    return NoticeRepository.of({ claim, settle, release, writeReminders, writeMissedPromotions })
  })
)
