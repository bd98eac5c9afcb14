import { Effect, Layer, Option } from "effect"
import {
  type AttendanceSettings,
  Reply,
  type ReplyAnswer,
  type ReplyState,
  SessionReplies
} from "../domain/Attendance.ts"
import { EntityNotFound, InvalidValue, RepliesClosed } from "../domain/Errors.ts"
import type { AthleteId, SessionId, UserId } from "../domain/Ids.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { AttendanceRepository, type ReplyWrite } from "../ports/AttendanceRepository.ts"
import { traced } from "../tracing/traced.ts"
import { InMemoryStore } from "./InMemoryStore.ts"

interface StoredReply {
  readonly athleteId: AthleteId
  answer: ReplyAnswer
  reason: string | null
  state: ReplyState
  /** The order of the yes (a counter over every session, as PostgreSQL's sequence); null for another answer. */
  yesOrder: number | null
  by: UserId
}

interface SessionAttendance {
  capacity: number | null
  replyCutoff: LocalDateTime | null
  readonly replies: Map<AthleteId, StoredReply>
}

const stateRank: Record<ReplyState, number> = { confirmed: 0, waiting: 1, maybe: 2, declined: 3 }

/**
 * `AttendanceRepository` in memory. Each operation runs in one synchronous step, so the session's
 * lock of the database is implicit. A reply whose athlete has left the session (or whose session
 * is gone) is dropped, as PostgreSQL's cascade from the membership drops it.
 */
export const InMemoryAttendanceRepository = Layer.effect(
  AttendanceRepository,
  Effect.gen(function*() {
    const { series, sessions } = yield* InMemoryStore
    const attendance = new Map<SessionId, SessionAttendance>()
    let yesCounter = 0

    const of = (sessionId: SessionId): SessionAttendance => {
      let found = attendance.get(sessionId)
      if (found === undefined) {
        found = { capacity: null, replyCutoff: null, replies: new Map() }
        attendance.set(sessionId, found)
      }
      const members = sessions.get(sessionId)?.athleteIds
      for (const athleteId of found.replies.keys()) {
        if (members === undefined || !members.has(athleteId)) found.replies.delete(athleteId)
      }
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

    /** Confirms the first waiting while places are free. */
    const fill = (stored: SessionAttendance) => {
      const all = ordered(stored)
      let free = stored.capacity === null
        ? Infinity
        : stored.capacity - all.filter((r) => r.state === "confirmed").length
      for (const reply of all) {
        if (free <= 0) break
        if (reply.state !== "waiting") continue
        reply.state = "confirmed"
        free--
      }
    }

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
      const first = of(write.sessionId)
      const closes = closedAt(write.sessionId, first)
      if (closes !== null && closes <= write.now) {
        return yield* new RepliesClosed({ sessionId: write.sessionId, closedAt: closes })
      }
      if (!session.athleteIds.has(write.athleteId)) {
        return yield* new InvalidValue({
          field: "athleteId",
          reason: `athlete ${write.athleteId} is not an athlete of session ${write.sessionId}`
        })
      }
      const written: Array<Reply> = []
      for (const sessionId of targets(write.sessionId, write.scope)) {
        const stored = of(sessionId)
        const later = closedAt(sessionId, stored)
        if (!sessions.get(sessionId)!.athleteIds.has(write.athleteId) || (later !== null && later <= write.now)) {
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
          by: write.by
        }
        stored.replies.set(write.athleteId, next)
        fill(stored)
        written.push(replyOf(sessionId, stored, next))
      }
      return written
    })

    const configure = traced("AttendanceRepository.configure")(
      function*(sessionId: SessionId, settings: AttendanceSettings) {
        if (!sessions.has(sessionId)) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
        const stored = of(sessionId)
        if (settings.capacity !== undefined) stored.capacity = settings.capacity
        if (settings.replyCutoff !== undefined) stored.replyCutoff = settings.replyCutoff
        fill(stored)
        return repliesOf(sessionId, stored)
      }
    )

    const replies = traced("AttendanceRepository.replies")(function*(sessionId: SessionId) {
      return sessions.has(sessionId) ? Option.some(repliesOf(sessionId, of(sessionId))) : Option.none()
    })

    return AttendanceRepository.of({ replies, configure, reply })
  })
)
