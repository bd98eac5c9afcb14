import { Clock, Context, Effect, Layer, Redacted } from "effect"
import type { Outbox } from "../webhooks/InMemoryOutbox.ts"
import { InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import type { InMemoryTables } from "../shared/InMemoryStore.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { AuditActor } from "./AuditActor.ts"
import type { AuditEntry } from "./AuditEntry.ts"

/**
 * The columns whose values an entry names but never copies, by table: those the database's trigger
 * is given (migration 0032). A reason for an absence may tell a person's health.
 */
export const auditedSecrets: Readonly<Record<string, ReadonlyArray<string>>> = {
  users: ["password_hash"],
  session_replies: ["reason"],
  webhooks: ["secret"],
  feed_tokens: ["token_hash"]
}

/** The tables in the order their rows are written: a row's parent before it (deletes go the other way). */
const tableOrder = [
  "athletes",
  "coaches",
  "admins",
  "users",
  "groups",
  "group_coaches",
  "memberships",
  "guardianships",
  "series",
  "series_cancellations",
  "sessions",
  "session_athletes",
  "session_attendance",
  "session_replies",
  "activities",
  "webhooks",
  "feed_tokens",
  "notice_preferences",
  "tasks"
] as const
type AuditedTable = typeof tableOrder[number]

type Row = Readonly<Record<string, unknown>>

interface KeptRow {
  readonly table: AuditedTable
  readonly row: Row
  /** The row as text, to tell a change. */
  readonly text: string
}

const keptRow = (table: AuditedTable, row: Row): KeptRow => ({ table, row, text: JSON.stringify(row) })

const snake = (key: string) => key.replace(/[A-Z]/gu, (c) => `_${c.toLowerCase()}`)

/** A value as the database's `to_jsonb` gives it, near enough: sets as arrays, instants as ISO text. */
const columnValue = (value: unknown): unknown =>
  value instanceof Set
    ? [...value].sort()
    : value instanceof Date
    ? value.toISOString()
    : Redacted.isRedacted(value)
    ? Redacted.value(value)
    : value

/** A record's own fields as the columns of its table (`coachId` is `coach_id`), but those left out. */
const columnsOf = (record: object, leftOut: ReadonlyArray<string> = [], renamed: Record<string, string> = {}): Row => {
  const row: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (leftOut.includes(key) || typeof value === "function" || value instanceof Map) continue
    row[renamed[key] ?? snake(key)] = columnValue(value)
  }
  return row
}

/**
 * Every row of an audited table the in-memory store holds, by a key of its table's primary key, as
 * the database's tables hold them: a session's athletes are rows of `session_athletes`, a group's
 * coaches rows of `group_coaches`, and so on. A session's attendance settings and replies are in
 * the store and audited; marks are kept by their repository, out of the store, and are not (decision 0303).
 */
interface Seen {
  readonly signature: string
  readonly rows: ReadonlyArray<readonly [key: string, row: KeptRow]>
}

const rowsOf = (tables: InMemoryTables, outbox: Outbox, seen: WeakMap<object, Seen>): Map<string, KeptRow> => {
  const rows = new Map<string, KeptRow>()
  /**
   * The rows `source` stands for, made again only when it is another object or its `signature`
   * changed: the store replaces a record it changes, but for what it keeps in place (a session's
   * athletes, its revision, the series that holds it), which the signature names.
   */
  const putOf = (
    source: object,
    signature: string,
    make: () => ReadonlyArray<readonly [table: AuditedTable, key: string, row: Row]>
  ) => {
    let known = seen.get(source)
    if (known === undefined || known.signature !== signature) {
      known = { signature, rows: make().map(([table, key, row]) => [`${table}/${key}`, keptRow(table, row)] as const) }
      seen.set(source, known)
    }
    for (const [key, row] of known.rows) rows.set(key, row)
  }
  for (
    const [table, kept] of [["athletes", tables.athletes], ["coaches", tables.coaches], [
      "admins",
      tables.admins
    ]] as const
  ) {
    for (const record of kept.values()) putOf(record, "", () => [[table, String(record.id), columnsOf(record)]])
  }
  for (const stored of tables.users.values()) {
    putOf(stored, "", () => [["users", String(stored.id), {
      ...columnsOf(stored.user),
      password_hash: Redacted.value(stored.passwordHash),
      tokens_valid_after: stored.tokensValidAfter
    }]])
  }
  for (const group of tables.groups.values()) {
    putOf(group, "", () => [
      ["groups", String(group.id), columnsOf(group, ["coachIds"])],
      ...group.coachIds.map((coachId) =>
        ["group_coaches", `${group.id}/${coachId}`, { group_id: group.id, coach_id: coachId }] as const
      )
    ])
  }
  for (const membership of tables.memberships.values()) {
    putOf(membership, "", () => [[
      "memberships",
      String(membership.id),
      columnsOf(membership, [], { from: "from_date", until: "until_date" })
    ]])
  }
  for (const [athleteId, guardians] of tables.guardians) {
    for (const userId of guardians) {
      rows.set(
        `guardianships/${userId}/${athleteId}`,
        keptRow("guardianships", { user_id: userId, athlete_id: athleteId })
      )
    }
  }
  const occurrenceOf = new Map<number, string>()
  for (const series of tables.series.values()) {
    putOf(series, "", () => [["series", String(series.id), columnsOf(series, ["overridden"])]])
    for (const [start, cancellation] of series.cancelled) {
      rows.set(
        `series_cancellations/${series.id}/${start}`,
        keptRow("series_cancellations", { series_id: series.id, occurrence_start: start, ...columnsOf(cancellation) })
      )
    }
    for (const [start, sessionId] of series.occurrences) {
      occurrenceOf.set(sessionId, JSON.stringify([series.id, start, series.overridden.has(sessionId)]))
    }
  }
  for (const session of tables.sessions.values()) {
    const occurrence = occurrenceOf.get(session.id) ?? "[null,null,false]"
    const revision = tables.sessionRevisions.get(session.id) ?? 0
    putOf(session, `${[...session.athleteIds].join(",")}|${occurrence}|${revision}`, () => {
      const [seriesId, start, overridden] = JSON.parse(occurrence) as [number | null, string | null, boolean]
      return [
        ["sessions", String(session.id), {
          ...columnsOf(session, ["athleteIds"]),
          series_id: seriesId,
          occurrence_start: start,
          overridden,
          revision
        }],
        ...[...session.athleteIds].map((athleteId) =>
          [
            "session_athletes",
            `${session.id}/${athleteId}`,
            { session_id: session.id, athlete_id: athleteId }
          ] as const
        )
      ]
    })
  }
  // A session's settings and replies are changed in place: read again at every operation.
  for (const [sessionId, attendance] of tables.attendance) {
    if (attendance.capacity !== null || attendance.replyCutoff !== null) {
      rows.set(
        `session_attendance/${sessionId}`,
        keptRow("session_attendance", {
          session_id: sessionId,
          capacity: attendance.capacity,
          reply_cutoff: attendance.replyCutoff
        })
      )
    }
    for (const reply of attendance.replies.values()) {
      rows.set(
        `session_replies/${sessionId}/${reply.athleteId}`,
        keptRow("session_replies", {
          session_id: sessionId,
          athlete_id: reply.athleteId,
          answer: reply.answer,
          reason: reply.reason,
          state: reply.state,
          yes_order: reply.yesOrder,
          replied_by: reply.by
        })
      )
    }
  }
  for (const activity of tables.activities.values()) {
    putOf(activity, "", () => [["activities", String(activity.id), columnsOf(activity)]])
  }
  for (const webhook of outbox.webhooks.values()) {
    // Parking a receiver is the dispatcher's bookkeeping, which the trigger does not audit either.
    putOf(
      webhook,
      "",
      () => [["webhooks", String(webhook.id), { id: webhook.id, url: webhook.url, secret: webhook.secret }]]
    )
  }
  for (const [userId, held] of tables.feedTokens) {
    putOf(
      held,
      "",
      () => [["feed_tokens", String(userId), { user_id: userId, token_hash: held.token, issued_at: held.issuedAt }]]
    )
  }
  for (const preference of tables.noticePreferences.values()) {
    putOf(preference, "", () => [["notice_preferences", String(preference.userId), columnsOf(preference)]])
  }
  for (const task of tables.tasks.values()) putOf(task, "", () => [["tasks", task.id, columnsOf(task)]])
  return rows
}

/** The ids an entry names, as the trigger picks them: `id` and every `…_id` and `…_by` column. */
const idsOf = (row: Row): Record<string, unknown> => {
  const ids: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(row)) {
    if (
      (column === "id" || column.endsWith("_id") || column.endsWith("_by")) &&
      (typeof value === "number" || typeof value === "string")
    ) ids[column] = value
  }
  return ids
}

/**
 * The in-memory store's audit trail writer (decision 0303): what decision 0240's trigger does for
 * the database. Every operation of an in-memory port goes through `around`, which, when it ends,
 * compares the store's audited rows with those the previous operation left and appends one entry per
 * row inserted, changed or deleted, naming the `AuditActor` of the fiber the operation ran in. An
 * operation runs in one synchronous step with every check before its first write, so one refused
 * has changed nothing and leaves no entry.
 */
export class InMemoryAuditJournal extends Context.Service<InMemoryAuditJournal, {
  /** `operation`, then the entries of what it wrote. */
  around<A, E, R>(operation: Effect.Effect<A, E, R>): Effect.Effect<A, E, R>
}>()("@club/core/testing/InMemoryAuditJournal") {
  static readonly layer = Layer.effect(
    InMemoryAuditJournal,
    Effect.gen(function*() {
      const tables = yield* InMemoryStore
      const outbox = yield* InMemoryOutbox
      const seen = new WeakMap<object, Seen>()
      let kept = rowsOf(tables, outbox, seen)
      let lastId = 0

      const append = (
        actor: AuditActor,
        atMs: number,
        operation: AuditEntry["operation"],
        now: KeptRow,
        before?: KeptRow
      ) => {
        const secrets = auditedSecrets[now.table] ?? []
        const changes: Record<string, unknown> = {}
        if (operation !== "delete") {
          for (const [column, value] of Object.entries(now.row)) {
            if (before !== undefined && JSON.stringify(before.row[column]) === JSON.stringify(value)) continue
            changes[column] = secrets.includes(column) ? "(withheld)" : value
          }
          if (operation === "update" && Object.keys(changes).length === 0) return
        }
        lastId = Math.max(lastId, tables.auditEntries.at(-1)?.id ?? 0) + 1
        tables.auditEntries.push({
          id: lastId,
          at: new Date(atMs).toISOString(),
          actor: actor.userId === null ? null : { userId: actor.userId, role: actor.role ?? "" },
          requestId: actor.requestId,
          operation,
          recordType: now.table,
          records: idsOf(now.row),
          changes
        })
      }

      const record = (actor: AuditActor, atMs: number) => {
        const current = rowsOf(tables, outbox, seen)
        const rank = (row: KeptRow) => tableOrder.indexOf(row.table)
        const written: Array<readonly [AuditEntry["operation"], KeptRow, KeptRow | undefined]> = []
        for (const [key, row] of current) {
          const before = kept.get(key)
          if (before === undefined) written.push(["insert", row, undefined])
          else if (before.text !== row.text) written.push(["update", row, before])
        }
        for (const [key, row] of kept) if (!current.has(key)) written.push(["delete", row, undefined])
        written.sort(([opA, a], [opB, b]) =>
          (opA === "delete" ? 1 : 0) - (opB === "delete" ? 1 : 0) ||
          (opA === "delete" ? rank(b) - rank(a) : rank(a) - rank(b))
        )
        for (const [operation, row, before] of written) append(actor, atMs, operation, row, before)
        kept = current
      }

      return InMemoryAuditJournal.of({
        around: (operation) =>
          Effect.onExit(operation, () =>
            Effect.gen(function*() {
              record(yield* AuditActor, yield* Clock.currentTimeMillis)
            }))
      })
    })
  )
}

/**
 * The services of `context` with each method that answers an effect run through the journal: the
 * one place every in-memory port's writes go through.
 */
export const journaled = <A>(journal: InMemoryAuditJournal["Service"], context: Context.Context<A>) => {
  const services = new Map<string, unknown>()
  for (const [key, service] of context.mapUnsafe) {
    // A port is a plain object of methods (`Service.of`); anything else passes unchanged.
    if (typeof service !== "object" || service === null || Object.getPrototypeOf(service) !== Object.prototype) {
      services.set(key, service)
      continue
    }
    const wrapped: Record<string, unknown> = {}
    for (const [name, member] of Object.entries(service as Record<string, unknown>)) {
      wrapped[name] = typeof member !== "function" ? member : (...args: Array<unknown>) => {
        const answer = (member as (...args: Array<unknown>) => unknown).apply(service, args)
        return Effect.isEffect(answer) ? journal.around(answer) : answer
      }
    }
    services.set(key, wrapped)
  }
  return Context.makeUnsafe<A>(services)
}
