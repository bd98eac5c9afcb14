import { type NewEvent, noticeRuleFor, NoticeSettings } from "@club/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { invitedAthletes } from "../membership/invitedAthletes.ts"
import { recipientsOf } from "../notices/recipients.ts"

/**
 * An id as a `bigint[]` element, 0 for none (ids start at 1): the driver cannot type an array whose
 * elements are all null, which a batch of membership events' sessions is. `NULLIF` reads it back.
 */
const int8 = (id: number | null | undefined) => BigInt(id ?? 0)

/**
 * Who each event tells (core's `noticeRuleFor`), flattened: one row per event (its place in the
 * batch, from 1) and athlete named, or one row with athlete 0 for "every athlete the session invites".
 */
const noticeTargets = (events: ReadonlyArray<NewEvent>) => {
  const n: Array<number> = []
  const kind: Array<string> = []
  const athlete: Array<bigint> = []
  events.forEach((event, index) => {
    const rule = noticeRuleFor(event)
    if (rule === undefined || event.sessionId === null) return
    const athletes = rule.audience._tag === "athletes" ? rule.audience.athleteIds : [0]
    for (const athleteId of athletes) {
      n.push(index + 1)
      kind.push(rule.kind)
      athlete.push(int8(athleteId))
    }
  })
  return { n, kind, athlete }
}

/**
 * Writes `events` to the outbox, in their order, a delivery of each to every webhook registered,
 * and, when notices are queued (mail on, `NoticeSettings`), one notice per event and person its
 * rule tells: one statement, inside the caller's transaction, so that an event and its notices exist
 * exactly when the change they tell was committed. Each names its session, its group (a
 * membership event, issue 41) or neither (the club's stream, decision 0281), whose order of delivery it follows.
 *
 * A notice's dedupe key is core's `noticeDedupeKey` (`<event id>:<user id>`), unique in the table:
 * a person told about two athletes by one event (a guardian of both) gets one notice, about their
 * own athlete first, else the lowest athlete id.
 */
export const writeEvents = (sql: SqlClient, events: ReadonlyArray<NewEvent>) =>
  events.length === 0 ? Effect.void : Effect.gen(function*() {
    const { queueNotices } = yield* NoticeSettings
    const targets = noticeTargets(events)
    const written = sql`INSERT INTO attendance_events (session_id, group_id, type, data)
      SELECT NULLIF(x.session_id, 0), NULLIF(x.group_id, 0), x.type, x.data::jsonb
      FROM unnest(${events.map((e) => int8(e.sessionId))}::bigint[], ${events.map((e) => int8(e.groupId))}::bigint[],
        ${events.map((e) => e.type)}::text[], ${events.map((e) => JSON.stringify(e.data))}::text[])
        WITH ORDINALITY AS x(session_id, group_id, type, data, n)
      ORDER BY x.n
      RETURNING id, session_id, group_id`
    if (!queueNotices || targets.n.length === 0) {
      return yield* sql`WITH event AS (${written})
        INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, group_id)
        SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w`
    }
    // The events' ids follow their order in the batch (the insert above is ordered by it).
    return yield* sql`WITH event AS (${written}),
      delivered AS (
        INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, group_id)
        SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w),
      numbered AS (SELECT id, session_id, row_number() OVER (ORDER BY id) AS n FROM event),
      target AS (
        SELECT e.id AS event_id, e.session_id, t.kind, t.athlete_id
        FROM unnest(${targets.n}::int[], ${targets.kind}::text[], ${targets.athlete}::bigint[])
          AS t(n, kind, athlete_id)
        JOIN numbered e ON e.n = t.n
        -- A notice names its session: an event of a session deleted in the same transaction tells nobody.
        JOIN sessions s ON s.id = e.session_id),
      told AS (
        SELECT event_id, session_id, kind, athlete_id FROM target WHERE athlete_id <> 0
        UNION
        SELECT t.event_id, t.session_id, t.kind, i.athlete_id FROM target t
          CROSS JOIN LATERAL (${invitedAthletes(sql, sql`t.session_id`)}) i
        WHERE t.athlete_id = 0),
      recipient AS (
        SELECT DISTINCT ON (told.event_id, r.user_id) told.event_id, told.session_id, told.kind, told.athlete_id,
          r.user_id
        FROM told CROSS JOIN LATERAL (${recipientsOf(sql, sql`told.athlete_id`)}) r
        JOIN athletes a ON a.id = told.athlete_id
        ORDER BY told.event_id, r.user_id, r.guardian, told.athlete_id)
      INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, kind)
      SELECT event_id || ':' || user_id, event_id, user_id, athlete_id, session_id, kind FROM recipient
      ON CONFLICT (dedupe_key) DO NOTHING`
  }).pipe(Effect.asVoid)
