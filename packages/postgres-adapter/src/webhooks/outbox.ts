import { type NewEvent, noticeRuleFor, NoticeSettings } from "@club/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { groupMembersOn, invitedAthletes } from "../membership/invitedAthletes.ts"
import { recipientsOf } from "../notices/recipients.ts"
import { jsonAsStored } from "../shared/rowsAsJson.ts"

/**
 * An id as a `bigint[]` element, 0 for none (ids start at 1): the driver cannot type an array whose
 * elements are all null, which a batch of membership events' sessions is. `NULLIF` reads it back.
 */
const int8 = (id: number | null | undefined) => BigInt(id ?? 0)

/**
 * How a target row finds its athletes: `named` (the row's athlete), `session` (every athlete the
 * event's session invites, as stored), `series` (every athlete the series' first occurrence invites:
 * a series invites once, decision 0282), `group` (the members of the group named `group_name` on
 * `day`: a cancelled session's group, the session being gone), `writtenGroup` (the members of the
 * group of the session the statement writes, on its day: that session's group as the write leaves it).
 */
type Expansion = "named" | "session" | "series" | "group" | "writtenGroup"

/**
 * A session a statement writes in its WITH item `written` (its rows as the write leaves them, none
 * when it wrote none), whose events go in the same statement: the n-th event is of the n-th row of
 * `written` by id (the event's own `sessionId` only stands for it; the ids of a statement's inserts
 * are drawn in the order asked). Its athletes as the write leaves them (`athleteIds`) when the
 * write sets them: the statement's reads see `session_athletes` as they were before it; left out,
 * they are the ones stored.
 */
export interface WrittenSession {
  readonly athleteIds: ReadonlyArray<number> | undefined
}

/**
 * The rows a statement inserts in its WITH item `inserted` (an `id` and a `"sessionId"` each, the
 * ids drawn in the order asked), whose events go in the same statement: the n-th event is of the
 * n-th row by id, in that row's session, and its data takes the row's id at `idKey` (the events are
 * core's, built before the database drew the ids).
 */
export interface InsertedRows {
  readonly idKey: string
}

/**
 * Who each event tells (core's `noticeRuleFor`), flattened into one row per event (its place in the
 * batch, from 1) and athlete named or expansion. A row `former` names a session deleted in the event's
 * transaction (a cancellation): its notice keeps the session's title and start, as the event has them.
 * The invitees of a session written by the events' own statement are its athletes as written, named,
 * and its group's members.
 */
const noticeTargets = (events: ReadonlyArray<NewEvent>, written: ReadonlyArray<WrittenSession> | undefined) => {
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
      case "invitees": {
        const athleteIds = written?.[index]?.athleteIds
        if (athleteIds === undefined) return push(n, rule.kind, "session")
        for (const athlete of athleteIds) push(n, rule.kind, "named", { athlete })
        return push(n, rule.kind, "writtenGroup")
      }
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
 * The WITH items that write `events` to the outbox, in their order (`event`), a delivery of each to
 * every webhook registered (`delivered`) and, when notices are queued (mail on, `NoticeSettings`),
 * one notice per event and person its rule tells (`noticed`). Each names its session, its group (a
 * membership event, issue 41) or neither (the club's stream, decision 0281), whose order of delivery
 * it follows. With `written` (one per event), the events are of the sessions the same statement
 * writes (see `WrittenSession`), and none is written of a row it did not write.
 *
 * A notice's dedupe key is core's `noticeDedupeKey` (`<event id>:<user id>`), unique in the table:
 * a person told about two athletes by one event (a guardian of both) gets one notice, about their
 * own athlete first, else the lowest athlete id.
 *
 * The webhooks are read `FOR KEY SHARE`: a webhook deleted by a transaction that commits while this one
 * waits is passed over, rather than failing the write on the deliveries' foreign key (a write and a
 * webhook's removal at the same moment). The lock only holds a removal back until the write commits.
 */
const outboxItems = (
  sql: SqlClient,
  events: ReadonlyArray<NewEvent>,
  queueNotices: boolean,
  written: ReadonlyArray<WrittenSession> | undefined,
  inserted?: InsertedRows
): ReadonlyArray<Fragment> => {
  const types = events.map((e) => e.type)
  // The text as the write stores it: a lone surrogate as U+FFFD, which jsonb takes.
  const data = events.map((e) => jsonAsStored(e.data))
  const source = inserted !== undefined
    ? sql`SELECT i."sessionId" AS session_id, 0::bigint AS group_id, x.type,
        jsonb_set(x.data::jsonb, ARRAY[${inserted.idKey}::text], to_jsonb(i.id))::text AS data, x.n
      FROM unnest(${types}::text[], ${data}::text[]) WITH ORDINALITY AS x(type, data, n)
      JOIN (SELECT id, "sessionId", row_number() OVER (ORDER BY id) AS n FROM inserted) i ON i.n = x.n`
    : written === undefined
    ? sql`SELECT x.session_id, x.group_id, x.type, x.data, x.n
      FROM unnest(${events.map((e) => int8(e.sessionId))}::bigint[], ${events.map((e) => int8(e.groupId))}::bigint[],
        ${types}::text[], ${data}::text[]) WITH ORDINALITY AS x(session_id, group_id, type, data, n)`
    : sql`SELECT w.id AS session_id, 0::bigint AS group_id, x.type, x.data, x.n
      FROM unnest(${types}::text[], ${data}::text[]) WITH ORDINALITY AS x(type, data, n)
      JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM written) w ON w.n = x.n`
  const outbox = [
    sql`event AS (INSERT INTO attendance_events (session_id, group_id, type, data)
      SELECT NULLIF(x.session_id, 0), NULLIF(x.group_id, 0), x.type, x.data::jsonb FROM (${source}) x
      ORDER BY x.n
      RETURNING id, session_id, group_id)`,
    sql`delivered AS (INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, group_id)
      SELECT w.id, event.id, event.session_id, event.group_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w)`
  ]
  if (!queueNotices) return outbox
  const targets = noticeTargets(events, written)
  if (targets.n.length === 0) return outbox
  // A statement's reads do not see the sessions it writes: their rows are there as `written`.
  const writtenThere = written === undefined ? sql`false` : sql`t.session_id IN (SELECT id FROM written)`
  const ofWrittenGroup = written === undefined ? sql.literal("") : sql`UNION ALL
        SELECT p.*, m.athlete_id FROM placed p JOIN written w ON w.id = p.session_id
          CROSS JOIN LATERAL (${groupMembersOn(sql, sql`w.groupe`, sql`COALESCE(w.creneau::date, current_date)`)}) m
        WHERE p.expand = 'writtenGroup'`
  // The events' ids follow their order in the batch (the insert above is ordered by it).
  return [
    ...outbox,
    sql`numbered AS (SELECT id, session_id, row_number() OVER (ORDER BY id) AS n FROM event)`,
    sql`target AS (
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
        JOIN numbered e ON e.n = t.n)`,
    // A notice names a session that is there, or one gone with the event (a cancellation): any other
    // event of a session deleted in the same transaction tells nobody.
    sql`placed AS (
        SELECT * FROM target t
        WHERE t.former OR ${writtenThere} OR EXISTS (SELECT 1 FROM sessions s WHERE s.id = t.session_id))`,
    sql`told AS (
        SELECT p.*, p.athlete_id AS told_athlete FROM placed p WHERE p.expand = 'named'
        UNION ALL
        SELECT p.*, i.athlete_id FROM placed p
          CROSS JOIN LATERAL (${invitedAthletes(sql, sql`p.session_id`)}) i
        WHERE p.expand IN ('session', 'series')
        UNION ALL
        SELECT p.*, m.athlete_id FROM placed p
          CROSS JOIN LATERAL (${groupMembersOn(sql, sql`p.group_name`, sql`p.day`)}) m
        WHERE p.expand = 'group'
        ${ofWrittenGroup})`,
    sql`recipient AS (
        SELECT DISTINCT ON (told.event_id, r.user_id) told.event_id, told.kind, told.told_athlete AS athlete_id,
          told.session_id, CASE WHEN told.former THEN told.event_session_id END AS former_session_id,
          CASE WHEN told.former THEN told.title END AS session_title,
          CASE WHEN told.former THEN told.start END AS session_start, r.user_id
        FROM told CROSS JOIN LATERAL (${recipientsOf(sql, sql`told.told_athlete`)}) r
        JOIN athletes a ON a.id = told.told_athlete
        ORDER BY told.event_id, r.user_id, r.guardian, told.told_athlete)`,
    sql`noticed AS (INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, former_session_id,
        session_title, session_start, kind)
      SELECT event_id || ':' || user_id, event_id, user_id, athlete_id, session_id, former_session_id, session_title,
        session_start, kind FROM recipient
      ON CONFLICT (dedupe_key) DO NOTHING)`
  ]
}

/**
 * Writes `events` to the outbox (see `outboxItems`): one statement, inside the caller's transaction,
 * so that an event and its notices exist exactly when the change they tell was committed.
 */
export const writeEvents = (sql: SqlClient, events: ReadonlyArray<NewEvent>) =>
  events.length === 0 ? Effect.void : Effect.gen(function*() {
    const { queueNotices } = yield* NoticeSettings
    yield* sql`WITH ${sql.csv(outboxItems(sql, events, queueNotices, undefined))} SELECT 1`
  })

/**
 * The WITH items that write the events of the sessions the statement writes in its item `written`,
 * one event per row and a `WrittenSession` per event, to be put after it (see `WrittenSession`):
 * the write and its events are one statement.
 */
export const eventsOfWritten = Effect.fnUntraced(
  function*(sql: SqlClient, events: ReadonlyArray<NewEvent>, written: ReadonlyArray<WrittenSession>) {
    const { queueNotices } = yield* NoticeSettings
    return outboxItems(sql, events, queueNotices, written)
  }
)

/**
 * The WITH items that write the events of the rows the statement inserts in its item `inserted`,
 * to be put after it (see `InsertedRows`): the rows and their events are one statement.
 */
export const eventsOfInserted = Effect.fnUntraced(
  function*(sql: SqlClient, events: ReadonlyArray<NewEvent>, inserted: InsertedRows) {
    const { queueNotices } = yield* NoticeSettings
    return outboxItems(sql, events, queueNotices, undefined, inserted)
  }
)
