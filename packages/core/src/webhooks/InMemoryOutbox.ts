import { Clock, Context, Effect, Layer } from "effect"
import { groupNamed, sessionDay } from "../membership/invitations.ts"
import { type NoticeKind, noticeDedupeKey, noticeRuleFor } from "../notices/noticeRules.ts"
import type { NoticeStatus } from "../notices/NoticeRepository.ts"
import { NoticeSettings } from "../notices/NoticeSettings.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import type { InMemoryTables } from "../shared/InMemoryStore.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import { wallClockAt } from "../shared/clubTime.ts"
import type { NewEvent } from "./Webhook.ts"

export interface StoredEvent extends NewEvent {
  readonly id: number
  readonly occurredAtMs: number
}

export interface StoredWebhook {
  readonly id: number
  readonly url: string
  readonly secret: string
  /** Parked after a failed attempt until then (epoch ms); 0 when not. */
  parkedUntilMs?: number
}

export interface StoredDelivery {
  readonly webhookId: number
  readonly eventId: number
  readonly sessionId: number | null
  readonly groupId: number | null
  pending: boolean
  /** Given up after its last attempt, until a replay. */
  dead?: boolean
  attempts: number
  dueAtMs: number
  leaseOwner: string | null
  leasedUntilMs: number
}

export interface StoredAttempt {
  readonly webhookId: number
  readonly eventId: number
  readonly sessionId: number | null
  readonly groupId: number | null
  readonly attempt: number
  readonly atMs: number
  readonly statusCode: number | null
  readonly delivered: boolean
  readonly error: string | null
}

/** A notice as PostgreSQL's `notices` holds it (migration 0029); times in epoch ms. */
export interface StoredNotice {
  readonly id: number
  readonly dedupeKey: string
  readonly eventId: number | null
  readonly userId: number
  readonly athleteId: number
  readonly sessionId: number
  readonly kind: NoticeKind
  status: NoticeStatus
  attempts: number
  dueAtMs: number
  readonly createdAtMs: number
}

/** What the in-memory outbox reads to expand a notice's rule into people, when notices are queued. */
export interface NoticeWriting {
  readonly tables: Pick<InMemoryTables, "users" | "sessions" | "groups" | "memberships" | "guardians">
  /** The club's day: a session without a `creneau` invites its group's members of that day. */
  readonly today: CalendarDate
}

export interface Outbox {
  readonly events: Array<StoredEvent>
  readonly webhooks: Map<number, StoredWebhook>
  /** In event order, then webhook order. */
  readonly deliveries: Array<StoredDelivery>
  readonly attempts: Array<StoredAttempt>
  /** One per event (or reminder) and person, by its dedupe key (issue 42). */
  readonly notices: Map<string, StoredNotice>
  readonly counters: { event: number; webhook: number; notice: number }
}

/**
 * The outbox of the in-memory store: the events the in-memory attendance repository writes with
 * each change, and their deliveries to the webhooks registered when they were written.
 */
export class InMemoryOutbox extends Context.Service<InMemoryOutbox, Outbox>()("@club/core/testing/InMemoryOutbox") {
  static readonly layer = Layer.sync(InMemoryOutbox, (): Outbox => ({
    events: [],
    webhooks: new Map(),
    deliveries: [],
    attempts: [],
    notices: new Map(),
    counters: { event: 0, webhook: 0, notice: 0 }
  }))
}

/**
 * Writes `events` to the outbox, each due at once to every webhook registered, and, when notices
 * are queued (`NoticeSettings`) and `tables` are given, their notices (`appendEventsAt`).
 */
export const appendEvents = (
  outbox: Outbox,
  events: ReadonlyArray<NewEvent>,
  tables?: NoticeWriting["tables"]
) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const { queueNotices } = yield* NoticeSettings
    const { timeZone } = yield* ScheduleSettings
    const today = wallClockAt(timeZone, now).slice(0, 10) as CalendarDate
    appendEventsAt(outbox, events, now, queueNotices && tables !== undefined ? { tables, today } : undefined)
  })

/**
 * The athletes the session invites: its own and its group's members on its day (docs/membership.md),
 * as PostgreSQL's `invitedAthletes` reads them.
 */
const invitees = (tables: NoticeWriting["tables"], sessionId: number, today: CalendarDate): Array<number> => {
  const session = tables.sessions.get(sessionId as SessionId)
  if (session === undefined) return []
  const found = new Set<number>(session.athleteIds)
  const group = groupNamed(tables, session.groupe)
  if (group !== undefined) {
    const day = sessionDay(session.creneau, today)
    for (const m of tables.memberships.values()) {
      if (m.groupId === group.id && m.from <= day && (m.until === null || m.until >= day)) found.add(m.athleteId)
    }
  }
  return [...found].sort((a, b) => a - b)
}

/**
 * Who is told about the athlete: its user and its guardians, each with an email; `guardian` false
 * for its own user. As PostgreSQL's `recipientsOf`.
 */
const recipientsOf = (tables: NoticeWriting["tables"], athleteId: number) => {
  const found: Array<{ userId: number; guardian: boolean }> = []
  for (const stored of tables.users.values()) {
    if (stored.user.athleteId === athleteId && (stored.user.email ?? "") !== "") {
      found.push({ userId: stored.id, guardian: false })
    }
  }
  for (const userId of tables.guardians.get(athleteId as AthleteId) ?? []) {
    const stored = tables.users.get(userId)
    if (stored !== undefined && (stored.user.email ?? "") !== "") found.push({ userId, guardian: true })
  }
  return found
}

/**
 * The notices of one written event, as `writeEvents` writes them on PostgreSQL: one per person, a
 * person told about two athletes told once (about their own athlete first, else the lowest id); an
 * existing dedupe key is left as it is.
 */
const appendNotices = (outbox: Outbox, event: StoredEvent, now: number, writing: NoticeWriting) => {
  const rule = noticeRuleFor(event)
  // A notice names its session: an event of a session already deleted tells nobody, as on PostgreSQL.
  if (rule === undefined || event.sessionId === null || !writing.tables.sessions.has(event.sessionId as SessionId)) {
    return
  }
  const athletes = rule.audience._tag === "athletes"
    ? rule.audience.athleteIds
    : invitees(writing.tables, event.sessionId, writing.today)
  const chosen = new Map<number, { athleteId: number; guardian: boolean }>()
  for (const athleteId of athletes) {
    for (const { guardian, userId } of recipientsOf(writing.tables, athleteId)) {
      const before = chosen.get(userId)
      const better = before === undefined || (before.guardian && !guardian) ||
        (before.guardian === guardian && athleteId < before.athleteId)
      if (better) chosen.set(userId, { athleteId, guardian })
    }
  }
  for (const [userId, { athleteId }] of [...chosen].sort(([a], [b]) => a - b)) {
    const dedupeKey = noticeDedupeKey(event.id, userId)
    if (outbox.notices.has(dedupeKey)) continue
    outbox.notices.set(dedupeKey, {
      id: ++outbox.counters.notice,
      dedupeKey,
      eventId: event.id,
      userId,
      athleteId,
      sessionId: event.sessionId,
      kind: rule.kind,
      status: "pending",
      attempts: 0,
      dueAtMs: now,
      createdAtMs: now
    })
  }
}

/**
 * `appendEvents` at `now` (epoch ms), for a step that cannot read the clock; notices are written
 * only when `notices` is given (mail on, decision 0277).
 */
export const appendEventsAt = (
  outbox: Outbox,
  events: ReadonlyArray<NewEvent>,
  now: number,
  notices?: NoticeWriting
) => {
  for (const event of events) {
    const id = ++outbox.counters.event
    const stored = { ...event, id, occurredAtMs: now }
    outbox.events.push(stored)
    if (notices !== undefined) appendNotices(outbox, stored, now, notices)
    for (const webhook of [...outbox.webhooks.values()].sort((a, b) => a.id - b.id)) {
      outbox.deliveries.push({
        webhookId: webhook.id,
        eventId: id,
        sessionId: event.sessionId,
        groupId: event.groupId ?? null,
        pending: true,
        attempts: 0,
        dueAtMs: now,
        leaseOwner: null,
        leasedUntilMs: 0
      })
    }
  }
}
