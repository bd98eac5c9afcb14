import { type NewEvent, noticeRuleFor, NoticeSettings } from "@club/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { groupMembersOn, invitedAthletes } from "../membership/invitedAthletes.ts"
import { recipientsOf } from "../notices/recipients.ts"

/**
 * An id as a `bigint[]` element, 0 for none (ids start at 1): the driver cannot type an array whose
 * elements are all null, which a batch of membership events' sessions is. `NULLIF` reads it back.
 */
const int8 = (id: number | null | undefined) => BigInt(id ?? 0)

/**
 * How a target row finds its athletes: `named` (the row's athlete), `session` (every athlete the
 * event's session invites), `series` (every athlete the series' first occurrence invites: a series
 * invites once, decision 0282), `group` (the members of the group named `group_name` on `day`: a
 * cancelled session's group, the session being gone).
 */
type Expansion = "named" | "session" | "series" | "group"

/**
 * Who each event tells (core's `noticeRuleFor`), flattened into one row per event (its place in the
 * batch, from 1) and athlete named or expansion. A row `former` names a session deleted in the event's
 * transaction (a cancellation): its notice keeps the session's title and start, as the event has them.
 */
const noticeTargets = (events: ReadonlyArray<NewEvent>) => {
  const rows = {
    n: [] as Array<number>,
    kind: [] as Array<string>,
    athlete: [] as Array<bigint>,
    expand: [] as Array<Expansion>,
    series: [] as Array<bigint>,
    group: [] as Array<string>,
    day: [] as Array<string>,
    former: [] as Array<boolean>,
    title: [] as Array<string>,
    start: [] as Array<string>
  }
  const push = (
    n: number,
    kind: string,
    expand: Expansion,
    more: { athlete?: number; series?: number; group?: string; day?: string; title?: string; start?: string } = {}
  ) => {
    rows.n.push(n)
    rows.kind.push(kind)
    rows.athlete.push(int8(more.athlete))
    rows.expand.push(expand)
    rows.series.push(int8(more.series))
    rows.group.push(more.group ?? "")
    rows.day.push(more.day ?? "1970-01-01")
    rows.former.push(more.title !== undefined)
    rows.title.push(more.title ?? "")
    rows.start.push(more.start ?? "1970-01-01T00:00:00")
  }
  events.forEach((event, index) => {
    const rule = noticeRuleFor(event)
    if (rule === undefined) return
    const n = index + 1
    const audience = rule.audience
    switch (audience._tag) {
      case "athletes":
        for (const athlete of audience.athleteIds) push(n, rule.kind, "named", { athlete })
        return
      case "invitees":
        return push(n, rule.kind, "session")
      case "seriesInvitees":
        return push(n, rule.kind, "series", { series: audience.seriesId })
      case "formerInvitees": {
        const former = { title: audience.title, start: audience.start }
        for (const athlete of audience.athleteIds) push(n, rule.kind, "named", { athlete, ...former })
        if (audience.groupe !== null) {
          push(n, rule.kind, "group", { group: audience.groupe, day: audience.day, ...former })
        }
        return
      }
    }
  })
  return rows
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
 *
 * The webhooks are read `FOR KEY SHARE`: a webhook deleted by a transaction that commits while this one
 * waits is passed over, rather than failing the write on the deliveries' foreign key (a write and a
 * webhook's removal at the same moment). The lock only holds a removal back until the write commits.
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
        SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w`
    }
    // The events' ids follow their order in the batch (the insert above is ordered by it).
    return yield* sql`WITH event AS (${written}),
      delivered AS (
        INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, group_id)
        SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w),
      numbered AS (SELECT id, session_id, row_number() OVER (ORDER BY id) AS n FROM event),
      target AS (
        SELECT e.id AS event_id, t.kind, t.athlete_id, t.expand, t.group_name, t.day, t.former, t.title, t.start,
          e.session_id AS event_session_id,
          -- The session the notice names: none for a session gone (a cancellation), a series' first occurrence.
          CASE WHEN t.former THEN NULL
            WHEN t.expand = 'series' THEN (SELECT o.id FROM sessions o WHERE o.series_id = t.series_id
              ORDER BY o.occurrence_start, o.id LIMIT 1)
            ELSE e.session_id END AS session_id
        FROM unnest(${targets.n}::int[], ${targets.kind}::text[], ${targets.athlete}::bigint[],
          ${targets.expand}::text[], ${targets.series}::bigint[], ${targets.group}::text[], ${targets.day}::date[],
          ${targets.former}::boolean[], ${targets.title}::text[], ${targets.start}::timestamp[])
          AS t(n, kind, athlete_id, expand, series_id, group_name, day, former, title, start)
        JOIN numbered e ON e.n = t.n),
      -- A notice names a session that is there, or one gone with the event (a cancellation): any other
      -- event of a session deleted in the same transaction tells nobody.
      placed AS (
        SELECT * FROM target t WHERE t.former OR EXISTS (SELECT 1 FROM sessions s WHERE s.id = t.session_id)),
      told AS (
        SELECT p.*, p.athlete_id AS told_athlete FROM placed p WHERE p.expand = 'named'
        UNION ALL
        SELECT p.*, i.athlete_id FROM placed p
          CROSS JOIN LATERAL (${invitedAthletes(sql, sql`p.session_id`)}) i
        WHERE p.expand IN ('session', 'series')
        UNION ALL
        SELECT p.*, m.athlete_id FROM placed p
          CROSS JOIN LATERAL (${groupMembersOn(sql, sql`p.group_name`, sql`p.day`)}) m
        WHERE p.expand = 'group'),
      recipient AS (
        SELECT DISTINCT ON (told.event_id, r.user_id) told.event_id, told.kind, told.told_athlete AS athlete_id,
          told.session_id, CASE WHEN told.former THEN told.event_session_id END AS former_session_id,
          CASE WHEN told.former THEN told.title END AS session_title,
          CASE WHEN told.former THEN told.start END AS session_start, r.user_id
        FROM told CROSS JOIN LATERAL (${recipientsOf(sql, sql`told.told_athlete`)}) r
        JOIN athletes a ON a.id = told.told_athlete
        ORDER BY told.event_id, r.user_id, r.guardian, told.told_athlete)
      INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, former_session_id, session_title,
        session_start, kind)
      SELECT event_id || ':' || user_id, event_id, user_id, athlete_id, session_id, former_session_id, session_title,
        session_start, kind FROM recipient
      ON CONFLICT (dedupe_key) DO NOTHING`
  }).pipe(Effect.asVoid)
