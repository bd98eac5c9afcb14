import { Effect, Layer, Option } from "effect"
import { type AttendanceSettings, Reply, type ReplyState, SessionReplies } from "./Attendance.ts"
import { EntityNotFound, InvalidValue, RepliesClosed } from "../shared/Errors.ts"
import type { AthleteId, SessionId, UserId } from "../shared/Ids.ts"
import {
  AthleteAttendance,
  attendanceRate,
  GroupAttendance,
  PresenceChange,
  PresenceLine,
  type PresenceMark,
  PresenceRecord,
  type PresenceStatus,
  SessionPresence
} from "./Presence.ts"
import type { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import { invitedByMembership } from "../membership/invitations.ts"
import { wallClockAt } from "../shared/clubTime.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import { AttendanceRepository, type ReplyWrite } from "./AttendanceRepository.ts"
import type { SessionAttendance, StoredReply } from "./StoredAttendance.ts"
import { notMembers } from "./Presence.ts"
import { traced } from "../shared/traced.ts"
import type { NewEvent } from "../webhooks/Webhook.ts"
import { appendEvents, appendEventsAt, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

/** `Map.groupBy`, which the library target of this package does not declare. */
const groupBy = <A, K>(items: ReadonlyArray<A>, key: (item: A) => K): Map<K, Array<A>> => {
  const groups = new Map<K, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

const stateRank: Record<ReplyState, number> = { confirmed: 0, waiting: 1, maybe: 2, declined: 3 }

/**
 * `AttendanceRepository` in memory. Each operation runs in one synchronous step, so the session's
 * lock of the database is implicit. A reply whose athlete has left the session (or whose session
 * is gone) is dropped unless the session's group still invites the athlete, as PostgreSQL's
 * trigger of migration 0027 drops it; a member's reply stays when its membership ends. The trigger
 * judges when the athlete leaves the session; here it is judged at the next look at the session,
 * which differs only when a membership ends between the two.
 */
export const InMemoryAttendanceRepository = Layer.effect(
  AttendanceRepository,
  Effect.gen(function*() {
    const tables = yield* InMemoryStore
    const { athletes, series, sessions } = tables
    const outbox = yield* InMemoryOutbox
    const attendance = tables.attendance
    let yesCounter = 0

    /** The club's day now: what a session without a creneau invites its group's members on. */
    const clubToday = (epochMs: number) =>
      Effect.map(ScheduleSettings, ({ timeZone }) => wallClockAt(timeZone, epochMs).slice(0, 10) as CalendarDate)

    /** Whether the athlete is invited to the session: one of its athletes, or a member of its group on its day. */
    const invited = (sessionId: SessionId, athleteId: AthleteId, today: CalendarDate) => {
      const session = sessions.get(sessionId)
      return session !== undefined &&
        (session.athleteIds.has(athleteId) || invitedByMembership(tables, session, athleteId, today))
    }

    /**
     * Whether a reply or a mark of the athlete stays: its session and athlete exist, and it was
     * never one of the session's athletes (a member's stays when the membership ends), or still is
     * one, or the group still invites it. Notes that it is one of them now.
     */
    const stays = (sessionId: SessionId, row: { ofAthletes: boolean }, athleteId: AthleteId, today: CalendarDate) => {
      const session = sessions.get(sessionId)
      if (session === undefined || !athletes.has(athleteId)) return false
      if (session.athleteIds.has(athleteId)) {
        row.ofAthletes = true
        return true
      }
      return !row.ofAthletes || invitedByMembership(tables, session, athleteId, today)
    }

    const of = (sessionId: SessionId, today: CalendarDate): SessionAttendance => {
      let found = attendance.get(sessionId)
      if (found === undefined) {
        found = { capacity: null, replyCutoff: null, replies: new Map() }
        attendance.set(sessionId, found)
      }
      const exists = sessions.has(sessionId)
      let freed = false
      for (const [athleteId, reply] of found.replies) {
        if (stays(sessionId, reply, athleteId, today)) continue
        found.replies.delete(athleteId)
        freed ||= reply.state === "confirmed"
      }
      // A place freed by an athlete who left the session goes to the waiting list, as PostgreSQL's
      // trigger does at once (here, at the next look at the session's replies).
      if (freed && exists) appendEventsAt(outbox, promotions(sessionId, fill(found)), Date.now())
      return found
    }

    const ordered = (stored: SessionAttendance) =>
      [...stored.replies.values()].sort((a, b) =>
        stateRank[a.state] - stateRank[b.state] || (a.yesOrder ?? 0) - (b.yesOrder ?? 0) || a.athleteId - b.athleteId
      )

    const replyOf = (sessionId: SessionId, stored: SessionAttendance, reply: StoredReply) => {
      const waiting = ordered(stored).filter((r) => r.state === "waiting")
      return new Reply({
        sessionId,
        athleteId: reply.athleteId,
        answer: reply.answer,
        reason: reply.reason,
        state: reply.state,
        waitingPosition: reply.state === "waiting" ? waiting.indexOf(reply) + 1 : null
      })
    }

    const repliesOf = (sessionId: SessionId, stored: SessionAttendance) => {
      const all = ordered(stored)
      return new SessionReplies({
        sessionId,
        capacity: stored.capacity,
        replyCutoff: stored.replyCutoff,
        confirmed: all.filter((r) => r.state === "confirmed").length,
        waiting: all.filter((r) => r.state === "waiting").length,
        replies: all.map((r) => replyOf(sessionId, stored, r))
      })
    }

    /** Confirms the first waiting while places are free; answers them. */
    const fill = (stored: SessionAttendance): Array<AthleteId> => {
      const promoted: Array<AthleteId> = []
      const all = ordered(stored)
      let free = stored.capacity === null
        ? Infinity
        : stored.capacity - all.filter((r) => r.state === "confirmed").length
      for (const reply of all) {
        if (free <= 0) break
        if (reply.state !== "waiting") continue
        reply.state = "confirmed"
        promoted.push(reply.athleteId)
        free--
      }
      return promoted
    }

    const promotions = (sessionId: SessionId, promoted: ReadonlyArray<AthleteId>): Array<NewEvent> =>
      promoted.map((athleteId) => ({ sessionId, type: "promotion", data: { athleteId } }))

    const confirmedCount = (stored: SessionAttendance) =>
      [...stored.replies.values()].filter((r) => r.state === "confirmed").length

    /** The sessions a reply of `scope` writes: the session, then its series' later occurrences. */
    const targets = (sessionId: SessionId, scope: ReplyWrite["scope"]): Array<SessionId> => {
      if (scope === "one") return [sessionId]
      for (const stored of series.values()) {
        const times = [...stored.occurrences].find(([, id]) => id === sessionId)
        if (times === undefined) continue
        const later = [...stored.occurrences]
          .filter(([time, id]) => time > times[0] && sessions.has(id))
          .sort(([a], [b]) => a < b ? -1 : 1)
          .map(([, id]) => id)
        return [sessionId, ...later]
      }
      return [sessionId]
    }

    const closedAt = (sessionId: SessionId, stored: SessionAttendance) =>
      stored.replyCutoff ?? sessions.get(sessionId)?.creneau ?? null

    const reply = traced("AttendanceRepository.reply")(function*(write: ReplyWrite) {
      const session = sessions.get(write.sessionId)
      if (session === undefined) return yield* new EntityNotFound({ entity: "Session", id: write.sessionId })
      const today = write.now.slice(0, 10) as CalendarDate
      const first = of(write.sessionId, today)
      const closes = closedAt(write.sessionId, first)
      if (closes !== null && closes <= write.now) {
        return yield* new RepliesClosed({ sessionId: write.sessionId, closedAt: closes })
      }
      if (!invited(write.sessionId, write.athleteId, today)) {
        return yield* new InvalidValue({
          field: "athleteId",
          reason: `athlete ${write.athleteId} is not an athlete of session ${write.sessionId}`
        })
      }
      const written: Array<Reply> = []
      const events: Array<NewEvent> = []
      for (const sessionId of targets(write.sessionId, write.scope)) {
        const stored = of(sessionId, today)
        const later = closedAt(sessionId, stored)
        if (!invited(sessionId, write.athleteId, today) || (later !== null && later <= write.now)) {
          continue
        }
        const previous = stored.replies.get(write.athleteId)
        const keepsPlace = write.input.answer === "yes" && previous?.answer === "yes"
        const state: ReplyState = write.input.answer === "no"
          ? "declined"
          : write.input.answer === "maybe"
          ? "maybe"
          : keepsPlace
          ? previous!.state
          : stored.capacity === null || confirmedCount(stored) < stored.capacity
          ? "confirmed"
          : "waiting"
        const next: StoredReply = {
          athleteId: write.athleteId,
          answer: write.input.answer,
          reason: write.input.reason,
          state,
          yesOrder: write.input.answer !== "yes" ? null : keepsPlace ? previous!.yesOrder : ++yesCounter,
          by: write.by,
          ofAthletes: sessions.get(sessionId)!.athleteIds.has(write.athleteId)
        }
        stored.replies.set(write.athleteId, next)
        const promoted = fill(stored)
        const answered = replyOf(sessionId, stored, next)
        written.push(answered)
        events.push({
          sessionId,
          type: previous?.answer === "yes" && next.answer !== "yes" ? "cancellation" : "reply",
          data: { athleteId: write.athleteId, answer: next.answer, reason: next.reason, state: answered.state }
        }, ...promotions(sessionId, promoted))
      }
      yield* appendEvents(outbox, events, tables)
      return written
    })

    const configure = traced("AttendanceRepository.configure")(
      function*(sessionId: SessionId, settings: AttendanceSettings) {
        if (!sessions.has(sessionId)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
        const stored = of(sessionId, yield* clubToday(Date.now()))
        if (settings.capacity !== undefined) stored.capacity = settings.capacity
        if (settings.replyCutoff !== undefined) stored.replyCutoff = settings.replyCutoff
        yield* appendEvents(outbox, promotions(sessionId, fill(stored)), tables)
        return repliesOf(sessionId, stored)
      }
    )

    const replies = traced("AttendanceRepository.replies")(function*(sessionId: SessionId) {
      return sessions.has(sessionId)
        ? Option.some(repliesOf(sessionId, of(sessionId, yield* clubToday(Date.now()))))
        : Option.none()
    })

    const marks = new Map<
      SessionId,
      Map<AthleteId, { status: PresenceStatus; by: UserId; at: number; ofAthletes: boolean }>
    >()
    const history = new Map<SessionId, Array<PresenceChange>>()

    /** The session's marks, without those of athletes no longer invited to it (the database's trigger). */
    const marksOf = (sessionId: SessionId, today: CalendarDate) => {
      let found = marks.get(sessionId)
      if (found === undefined) {
        found = new Map()
        marks.set(sessionId, found)
      }
      for (const [athleteId, mark] of found) {
        if (!stays(sessionId, mark, athleteId, today)) found.delete(athleteId)
      }
      return found
    }

    const presenceOf = (sessionId: SessionId, today: CalendarDate) =>
      new SessionPresence({
        sessionId,
        marks: [...marksOf(sessionId, today)]
          .sort(([a], [b]) => a - b)
          .map(([athleteId, m]) =>
            new PresenceRecord({ athleteId, status: m.status, markedBy: m.by, markedAt: new Date(m.at).toISOString() })
          ),
        history: (history.get(sessionId) ?? []).filter((change) => athletes.has(change.athleteId))
      })

    const presence = traced("AttendanceRepository.presence")(function*(sessionId: SessionId) {
      return sessions.has(sessionId)
        ? Option.some(presenceOf(sessionId, yield* clubToday(Date.now())))
        : Option.none()
    })

    const mark = traced("AttendanceRepository.mark")(
      function*(sessionId: SessionId, given: ReadonlyArray<PresenceMark>, by: UserId, atEpochMs: number) {
        const session = sessions.get(sessionId)
        if (session === undefined) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
        const today = yield* clubToday(atEpochMs)
        const strangers = [...new Set(given.map((m) => m.athleteId).filter((id) => !invited(sessionId, id, today)))]
          .sort((a, b) => a - b)
        if (strangers.length > 0) {
          return yield* new InvalidValue({
            field: "marks",
            reason: notMembers(strangers, sessionId)
          })
        }
        const current = marksOf(sessionId, today)
        const changes = history.get(sessionId) ?? []
        history.set(sessionId, changes)
        const events: Array<NewEvent> = []
        for (const { athleteId, status } of [...given].sort((a, b) => a.athleteId - b.athleteId)) {
          const previous = current.get(athleteId)
          if (previous?.status === status) continue
          current.set(athleteId, { status, by, at: atEpochMs, ofAthletes: session.athleteIds.has(athleteId) })
          events.push({
            sessionId,
            type: "presence",
            data: { athleteId, status, previousStatus: previous?.status ?? null }
          })
          changes.push(
            new PresenceChange({
              athleteId,
              status,
              previousStatus: previous?.status ?? null,
              changedBy: by,
              changedAt: new Date(atEpochMs).toISOString()
            })
          )
        }
        yield* appendEvents(outbox, events, tables)
        return presenceOf(sessionId, today)
      }
    )

    /** The marks of the sessions whose creneau is in `[from, until)`, with their session. */
    const marksIn = (from: LocalDateTime, until: LocalDateTime, today: CalendarDate) =>
      [...sessions.values()]
        .filter((s) => s.creneau !== null && s.creneau >= from && s.creneau < until)
        .flatMap((s) =>
          [...marksOf(s.id, today)].map(([athleteId, m]) => ({ session: s, athleteId, status: m.status }))
        )

    const countsOf = (statuses: ReadonlyArray<PresenceStatus>) => {
      const counts = { present: 0, late: 0, absent: 0, excused: 0 }
      for (const status of statuses) counts[status]++
      return { ...counts, rate: attendanceRate(counts) }
    }

    const figures = traced("AttendanceRepository.figures")(
      function*(from: LocalDateTime, until: LocalDateTime, athleteId: AthleteId | null) {
        const all = marksIn(from, until, yield* clubToday(Date.now())).filter((m) =>
          athleteId === null || m.athleteId === athleteId
        )
        const byAthlete = groupBy(all, (m) => m.athleteId)
        const byGroup = groupBy(all, (m) => m.session.groupe)
        return {
          athletes: [...byAthlete].sort(([a], [b]) => a - b).map(([id, ms]) =>
            new AthleteAttendance({ athleteId: id, ...countsOf(ms.map((m) => m.status)) })
          ),
          groups: [...byGroup]
            .sort(([a], [b]) => a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1)
            .map(([groupe, ms]) => new GroupAttendance({ groupe, ...countsOf(ms.map((m) => m.status)) }))
        }
      }
    )

    const presenceLines = traced("AttendanceRepository.presenceLines")(
      function*(from: LocalDateTime, until: LocalDateTime) {
        return marksIn(from, until, yield* clubToday(Date.now()))
          .sort((x, y) =>
            (x.session.creneau! < y.session.creneau! ? -1 : x.session.creneau! > y.session.creneau! ? 1 : 0) ||
            x.session.id - y.session.id || x.athleteId - y.athleteId
          )
          .map((m) =>
            new PresenceLine({
              sessionId: m.session.id,
              creneau: m.session.creneau,
              sessionName: m.session.name,
              groupe: m.session.groupe,
              athleteId: m.athleteId,
              athleteName: athletes.get(m.athleteId)?.name ?? null,
              status: m.status
            })
          )
      }
    )

    return AttendanceRepository.of({ replies, configure, reply, presence, mark, figures, presenceLines })
  })
)
