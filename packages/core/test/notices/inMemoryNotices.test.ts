import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  GuardianshipRepository,
  type LocalDateTime,
  NoticeSettings,
  ReplyInput,
  type SessionId,
  SessionRepository,
  type UserId,
  UserRepository
} from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { InMemoryOutbox, InMemoryRepositories } from "../../src/testing.ts"
import { newSession, newUser } from "../repositoryContract/fixtures.ts"

/**
 * The in-memory store writes notices as PostgreSQL's `writeEvents` does (issue 42): one per event
 * and person told, in the event's step, only when notices are queued (mail on).
 */

const now = "2026-01-01T12:00:00" as LocalDateTime

const athlete = (name: string) =>
  AthleteRepository.use((athletes) =>
    Effect.map(athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null })), (a) => a.id)
  )

const userOf = (name: string, athleteId: AthleteId | null, email: string | null = `${name}@club.test`) =>
  UserRepository.use((users) =>
    Effect.map(
      users.create({
        ...newUser(name, athleteId === null ? "COACH" : "ATHLETE", athleteId === null ? "create" : { athleteId }),
        email
      }),
      (u) => u.id
    )
  )

const reply = (sessionId: SessionId, athleteId: AthleteId, answer: "yes" | "no") =>
  AttendanceRepository.use((r) =>
    r.reply({
      sessionId,
      athleteId,
      input: new ReplyInput({ answer, reason: null }),
      scope: "one",
      now,
      by: 1 as UserId
    })
  )

/** A session of capacity 1: the filler says yes, the athlete yes (waiting), the filler no: a promotion. */
const promotion = (prefix: string) =>
  Effect.gen(function*() {
    const filler = yield* athlete(`${prefix}-filler`)
    const promoted = yield* athlete(`${prefix}-promoted`)
    const own = yield* userOf(`${prefix}-own`, promoted)
    const parent = yield* userOf(`${prefix}-parent`, null)
    const silent = yield* userOf(`${prefix}-silent`, null, null)
    yield* GuardianshipRepository.use((links) => links.link(parent, promoted))
    yield* GuardianshipRepository.use((links) => links.link(silent, promoted))
    const session = yield* SessionRepository.use((r) =>
      r.create(newSession({ athleteIds: [filler, promoted], creneau: "2026-11-21T18:30:00" }))
    )
    yield* AttendanceRepository.use((r) => r.configure(session.id, new AttendanceSettings({ capacity: 1 })))
    yield* reply(session.id, filler, "yes")
    yield* reply(session.id, promoted, "yes")
    yield* reply(session.id, filler, "no")
    const outbox = yield* InMemoryOutbox
    const event = outbox.events.find((e) => e.type === "promotion" && e.sessionId === session.id)!
    const notices = [...outbox.notices.values()].filter((n) => n.sessionId === session.id)
    return { promoted, own, parent, event, notices }
  })

describe("Notices written by the in-memory outbox", () => {
  layer(InMemoryRepositories)((it) => {
    it.effect("mail on: a promotion writes one notice for the athlete's user and one for a guardian with an email", () =>
      Effect.gen(function*() {
        const { event, notices, own, parent, promoted } = yield* promotion("on")
        expect(notices.map((n) => [n.dedupeKey, n.userId, n.athleteId, n.kind, n.status, n.eventId])).toEqual(
          [own, parent].sort((a, b) => a - b).map((userId) => [
            `${event.id}:${userId}`,
            userId,
            promoted,
            "promoted",
            "pending",
            event.id
          ])
        )
      }).pipe(Effect.provideService(NoticeSettings, { queueNotices: true })))

    it.effect("mail off: the promotion is written, no notice", () =>
      Effect.gen(function*() {
        const { event, notices } = yield* promotion("off")
        expect(event).toBeDefined()
        expect(notices).toEqual([])
      }))
  })
})
