import {
  ActivityRepository,
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  type ClaimedDelivery,
  type EventId,
  type LocalDateTime,
  PresenceMark,
  ReplyInput,
  type ReplyAnswer,
  type SessionId,
  PlannedSessionCreate,
  SeriesCreate,
  SeriesRepository,
  SessionRepository,
  SessionUpdate,
  type UserId,
  UserRepository,
  WebhookCreate,
  type WebhookId,
  WebhookRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newActivity, newSession, newUser } from "./fixtures.ts"

const now = "2026-01-01T12:00:00" as LocalDateTime
const lease = 60_000

const athletes = (count: number) =>
  Effect.gen(function*() {
    const repository = yield* AthleteRepository
    const ids: Array<AthleteId> = []
    for (let i = 0; i < count; i++) {
      ids.push(
        (yield* repository.create(new AthleteCreate({ id: null, name: `w${i}`, categorie: null, niveau: null }))).id
      )
    }
    return ids
  })

const session = (athleteIds: ReadonlyArray<AthleteId>) =>
  Effect.map(
    Effect.flatMap(Effect.service(SessionRepository), (r) => r.create(newSession({ athleteIds }))),
    (s) => s.id
  )

const reply = (sessionId: SessionId, athleteId: AthleteId, answer: ReplyAnswer) =>
  Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
    r.reply({
      sessionId,
      athleteId,
      input: new ReplyInput({ answer, reason: null }),
      scope: "one",
      now,
      by: 1 as UserId
    }))

/** Registers a webhook well within any cap. */
const registerOne = (webhooks: WebhookRepository["Service"], input: WebhookCreate) =>
  webhooks.register(input, 1000).pipe(Effect.map(Option.getOrThrow))

/** Claims until nothing is due, settling each as delivered; answers the parsed bodies. */
/** A webhook, and a session of one place that two athletes answered yes to, in that order. */
const fullSessionWithHook = Effect.gen(function*() {
  const webhooks = yield* WebhookRepository
  const hook = yield* registerOne(webhooks, new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) }))
  const [a, b] = yield* athletes(2)
  const sessionId = yield* session([a!, b!])
  // The session's own event (sessionCreated) is delivered first: what follows is attendance's.
  yield* drain(hook.id)
  yield* (yield* AttendanceRepository).configure(sessionId, new AttendanceSettings({ capacity: 1 }))
  yield* reply(sessionId, a!, "yes")
  yield* reply(sessionId, b!, "yes")
  return { a: a!, b: b!, hook, sessionId, webhooks }
})

const drain = (webhookId: WebhookId) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const bodies: Array<{ id: number; type: string; sessionId?: number; data: Record<string, unknown> }> = []
    for (;;) {
      const claimed = yield* webhooks.claim("drain", Date.now() + 1000, lease)
      if (Option.isNone(claimed)) return bodies
      expect(claimed.value.webhookId).toBe(webhookId)
      bodies.push(JSON.parse(claimed.value.body))
      yield* webhooks.settle("drain", claimed.value, delivered)
    }
  })

const delivered = { delivered: true, statusCode: 204, error: null, atEpochMs: Date.now(), retryAtEpochMs: 0 }

export const webhookRepositoryContract: ContractSuite = {
  title: "WebhookRepository and the outbox",
  tests: (it) => {
    it.effect("registers, lists and removes webhooks; the secret is never answered", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const a = yield* registerOne(webhooks, new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) }))
        const b = yield* registerOne(webhooks, new WebhookCreate({ url: "https://b.test/", secret: "t".repeat(20) }))
        expect({ ...a }).toEqual({ id: a.id, url: "http://a.test/hook" })
        expect((yield* webhooks.list()).map((w) => w.id)).toEqual([a.id, b.id])
        expect(yield* webhooks.remove(a.id)).toBe(true)
        expect(yield* webhooks.remove(a.id)).toBe(false)
        expect(yield* webhooks.attempts(a.id, 10)).toEqual(Option.none())
        expect(yield* webhooks.remove(b.id)).toBe(true)
      }))

    it.effect("registers no webhook beyond the cap; a removal makes room", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const before = (yield* webhooks.list()).length
        const input = new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) })
        const a = yield* registerOne(webhooks, input)
        expect(yield* webhooks.register(input, before + 1)).toEqual(Option.none())
        expect((yield* webhooks.list()).length).toBe(before + 1)
        yield* webhooks.remove(a.id)
        const again = yield* webhooks.register(input, before + 1)
        expect(Option.isSome(again)).toBe(true)
        yield* webhooks.remove(Option.getOrThrow(again).id)
      }))

    it.effect("replies, promotions, cancellations and marks become events, delivered in order with the webhook's secret", () =>
      Effect.gen(function*() {
        const { a, b, hook, sessionId, webhooks } = yield* fullSessionWithHook
        yield* reply(sessionId, a!, "no")
        yield* (yield* AttendanceRepository).mark(
          sessionId,
          [new PresenceMark({ athleteId: b!, status: "late" })],
          1 as UserId,
          0
        )
        const first = yield* webhooks.claim("w", Date.now() + 1000, lease)
        expect(Option.getOrThrow(first).secret).toBe("s".repeat(16))
        expect(Option.getOrThrow(first).attempt).toBe(1)
        yield* webhooks.settle("w", Option.getOrThrow(first), delivered)
        const rest = yield* drain(hook.id)
        const all = [JSON.parse(Option.getOrThrow(first).body), ...rest]
        expect(all.map((e) => [e.type, e.sessionId, e.data])).toEqual([
          ["reply", sessionId, { athleteId: a, answer: "yes", reason: null, state: "confirmed" }],
          ["reply", sessionId, { athleteId: b, answer: "yes", reason: null, state: "waiting" }],
          ["cancellation", sessionId, { athleteId: a, answer: "no", reason: null, state: "declined" }],
          ["promotion", sessionId, { athleteId: b }],
          ["presence", sessionId, { athleteId: b, status: "late", previousStatus: null }]
        ])
        const ids = all.map((e) => e.id as number)
        expect([...ids].sort((x, y) => x - y)).toEqual(ids)
        expect(all[0].occurredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u)
        const log = Option.getOrThrow(yield* webhooks.attempts(hook.id, 2))
        expect(log.map((x) => [x.eventId, x.delivered, x.statusCode])).toEqual([[ids[4], true, 204], [
          ids[3],
          true,
          204
        ]])
        yield* webhooks.remove(hook.id)
      }))

    it.effect("one attempt per webhook at a time; a failure parks the webhook until its retry is due", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const hook = yield* registerOne(
          webhooks,
          new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) })
        )
        const [a, b] = yield* athletes(2)
        const one = yield* session([a!])
        const two = yield* session([b!])
        yield* drain(hook.id)
        yield* reply(one, a!, "yes")
        yield* reply(one, a!, "maybe")
        yield* reply(two, b!, "yes")
        const t = Date.now() + 1000
        const first = Option.getOrThrow(yield* webhooks.claim("x", t, lease))
        expect(first.sessionId).toBe(one)
        // In flight with x: nothing else of the webhook is claimed, not even another session's event.
        expect(yield* webhooks.claim("y", t, lease)).toEqual(Option.none())
        // A failed attempt parks the webhook until its retry is due: no session's event goes meanwhile.
        yield* webhooks.settle("x", first, {
          delivered: false,
          statusCode: 500,
          error: "http-status",
          atEpochMs: t,
          retryAtEpochMs: t + 5000
        })
        expect(yield* webhooks.claim("y", t + 4999, lease)).toEqual(Option.none())
        const again = Option.getOrThrow(yield* webhooks.claim("y", t + 5000, lease))
        expect([again.eventId, again.attempt]).toEqual([first.eventId, 2])
        // The lease ends: the delivery is claimed again (at least once), and the stale owner's settle changes nothing.
        const retaken = Option.getOrThrow(yield* webhooks.claim("z", t + 5000 + lease, lease))
        expect([retaken.eventId, retaken.attempt]).toEqual([first.eventId, 3])
        yield* webhooks.settle("y", again, delivered)
        expect(yield* webhooks.claim("w", t + 5000 + lease, lease)).toEqual(Option.none())
        yield* webhooks.settle("z", retaken, delivered)
        const next = Option.getOrThrow(yield* webhooks.claim("w", t + 5000 + lease, lease))
        expect([next.sessionId, JSON.parse(next.body).data.answer]).toEqual([one, "maybe"])
        yield* webhooks.settle("w", next, delivered)
        const other = Option.getOrThrow(yield* webhooks.claim("w", t + 5000 + lease, lease))
        expect(other.sessionId).toBe(two)
        yield* webhooks.settle("w", other, delivered)
        const log = Option.getOrThrow(yield* webhooks.attempts(hook.id, 10))
        expect(log.filter((x) => x.eventId === first.eventId).map((x) => [x.attempt, x.delivered, x.statusCode]))
          .toEqual([[3, true, 204], [2, true, 204], [1, false, 500]])
        yield* webhooks.remove(hook.id)
      }))

    it.effect("a last failed attempt gives the delivery up: the session's next event goes; a replay brings it back", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const hook = yield* registerOne(
          webhooks,
          new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) })
        )
        const [a] = yield* athletes(1)
        const sessionId = yield* session([a!])
        yield* drain(hook.id)
        yield* reply(sessionId, a!, "yes")
        yield* reply(sessionId, a!, "no")
        const t = Date.now() + 1000
        const first = Option.getOrThrow(yield* webhooks.claim("x", t, lease))
        yield* webhooks.settle("x", first, {
          delivered: false,
          statusCode: 302,
          error: "http-status",
          atEpochMs: t,
          retryAtEpochMs: t + 10,
          final: true
        })
        const next = Option.getOrThrow(yield* webhooks.claim("x", t + 10, lease))
        expect(next.eventId).toBeGreaterThan(first.eventId)
        yield* webhooks.settle("x", next, delivered)
        expect(yield* webhooks.claim("x", t + 10_000, lease)).toEqual(Option.none())
        expect(yield* webhooks.replay(hook.id, first.eventId)).toEqual(Option.some(2))
        expect((yield* drain(hook.id)).map((e) => e.id)).toEqual([first.eventId, next.eventId])
        yield* webhooks.remove(hook.id)
      }))

    it.effect("a replay delivers the webhook's events again from the one given", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const hook = yield* registerOne(
          webhooks,
          new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) })
        )
        const [a] = yield* athletes(1)
        const sessionId = yield* session([a!])
        yield* drain(hook.id)
        yield* reply(sessionId, a!, "yes")
        yield* reply(sessionId, a!, "no")
        const ids = (yield* drain(hook.id)).map((e) => e.id)
        expect(ids.length).toBe(2)
        expect(yield* webhooks.replay(hook.id, ids[1]! as EventId)).toEqual(Option.some(1))
        expect((yield* drain(hook.id)).map((e) => e.id)).toEqual([ids[1]])
        // From the first event on: the session's sessionCreated (delivered before) and both replies.
        expect(yield* webhooks.replay(hook.id, 1 as EventId)).toEqual(Option.some(3))
        expect((yield* drain(hook.id)).map((e) => e.id).slice(1)).toEqual(ids)
        expect(yield* webhooks.replay(999_999 as WebhookId, 1 as EventId)).toEqual(Option.none())
        yield* webhooks.remove(hook.id)
      }))

    it.effect("sessions, series, activities and users write their events, the same in every store", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const hook = yield* registerOne(
          webhooks,
          new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) })
        )
        const sessions = yield* SessionRepository
        const series = yield* SeriesRepository
        const activities = yield* ActivityRepository
        const users = yield* UserRepository
        const at = (time: string) => time as LocalDateTime
        const [x, y] = yield* athletes(2)
        const own = yield* sessions.create(newSession({ name: "Own", duree: 90, athleteIds: [y!, x!] }))
        yield* sessions.update(own.id, new SessionUpdate({ duree: 60 }))
        const activity = yield* activities.create(newActivity(own.id))
        yield* activities.update(activity.id, newActivity(own.id, "cool-down", null))
        yield* activities.delete(activity.id)
        yield* sessions.delete(own.id)
        const planned = yield* series.createSession(
          new PlannedSessionCreate({
            name: "Planned",
            groupe: null,
            coachId: null,
            athleteIds: [],
            duree: 45,
            creneau: at("2031-02-03T10:00:00")
          })
        )
        yield* series.changeSession(planned.id, { creneau: at("2031-02-03T11:00:00") })
        const track = yield* series.create(
          new SeriesCreate({
            name: "Track",
            groupe: null,
            coachId: null,
            duree: 75,
            start: at("2031-03-03T18:00:00"),
            rrule: "FREQ=WEEKLY;BYDAY=MO",
            athleteIds: []
          }),
          [at("2031-03-03T18:00:00"), at("2031-03-10T18:00:00"), at("2031-03-17T18:00:00")],
          at("2031-03-17T18:00:00")
        )
        const [first, second] = track.occurrences
        yield* series.changeOccurrence(track.id, first!.sessionId, { duree: 80 })
        yield* series.cancelAt(track.id, at("2031-03-10T18:00:00"))
        yield* series.rewrite(track.id, {
          from: at("2031-03-17T18:00:00"),
          shiftSeconds: 0,
          continuation: false,
          start: track.start,
          rrule: track.rrule,
          values: { name: "Track 2" }
        })
        yield* series.endBefore(track.id, at("2031-03-17T18:00:00"))
        const suffix = `${Date.now()}-${Math.random()}`
        const user = yield* users.create(newUser(`events-${suffix}`, "COACH"))
        yield* users.update(user.id, { name: `renamed-${suffix}` })
        yield* users.delete(user.id)
        const bodies = yield* drain(hook.id)
        const session = (name: string, creneau: string, duree: number, seriesId: number | null) => ({
          name,
          creneau,
          duree,
          seriesId
        })
        const activityData = (name: string, theme: string | null) => ({
          activityId: activity.id,
          name,
          theme,
          duree: 15
        })
        const userData = (name: string) => ({
          userId: user.id,
          name,
          role: "COACH",
          coachId: user.coachId,
          athleteId: null,
          adminId: null
        })
        expect(bodies.map((e) => [e.type, e.sessionId ?? null, e.data])).toEqual([
          ["sessionCreated", own.id, session("Own", "2026-11-21T18:30:00", 90, null)],
          ["sessionChanged", own.id, {
            ...session("Own", "2026-11-21T18:30:00", 60, null),
            previousCreneau: "2026-11-21T18:30:00",
            previousDuree: 90
          }],
          ["activityCreated", own.id, activityData("warm-up", "cardio")],
          ["activityChanged", own.id, activityData("cool-down", null)],
          ["activityDeleted", own.id, activityData("cool-down", null)],
          ["sessionCancelled", own.id, {
            ...session("Own", "2026-11-21T18:30:00", 60, null),
            groupe: "A",
            athleteIds: [x, y]
          }],
          ["sessionCreated", planned.id, session("Planned", "2031-02-03T10:00:00", 45, null)],
          ["sessionChanged", planned.id, {
            ...session("Planned", "2031-02-03T11:00:00", 45, null),
            previousCreneau: "2031-02-03T10:00:00",
            previousDuree: 45
          }],
          // One event for the series, none per occurrence (decision 0280).
          ["seriesCreated", null, {
            seriesId: track.id,
            name: "Track",
            groupe: null,
            start: "2031-03-03T18:00:00",
            rrule: "FREQ=WEEKLY;BYDAY=MO",
            duree: 75
          }],
          ["sessionChanged", first!.sessionId, {
            ...session("Track", "2031-03-03T18:00:00", 80, track.id),
            previousCreneau: "2031-03-03T18:00:00",
            previousDuree: 75
          }],
          ["sessionCancelled", second!.sessionId, {
            ...session("Track", "2031-03-10T18:00:00", 75, track.id),
            groupe: null,
            athleteIds: []
          }],
          // One event for the change, none for the occurrence it renamed (decision 0280).
          ["seriesChanged", null, { seriesId: track.id, from: "2031-03-17T18:00:00", continuedBy: null }],
          ["seriesCancelled", null, { seriesId: track.id, from: "2031-03-17T18:00:00" }],
          ["userCreated", null, userData(`events-${suffix}`)],
          ["userChanged", null, userData(`renamed-${suffix}`)],
          ["userDeleted", null, { userId: user.id }]
        ])
        // A series' and a user's event names no stream: the club's (decision 0281).
        expect(bodies.filter((e) => e.type.startsWith("user")).every((e) => !("sessionId" in e) && !("groupId" in e)))
          .toBe(true)
        // Never a secret: the user's password hash (and email) stay out of its events.
        expect(JSON.stringify(bodies)).not.toContain("hash-of")
        expect(JSON.stringify(bodies)).not.toContain("@club.test")
        yield* webhooks.remove(hook.id)
      }))

    it.effect("a place freed by an athlete taken out of the session is an event too", () =>
      Effect.gen(function*() {
        const { b, hook, sessionId, webhooks } = yield* fullSessionWithHook
        yield* drain(hook.id)
        yield* (yield* SessionRepository).update(sessionId, new SessionUpdate({ athleteIds: [b!] }))
        // The in-memory store promotes at its next look at the session's replies; PostgreSQL at once.
        yield* (yield* AttendanceRepository).replies(sessionId)
        expect(
          (yield* drain(hook.id)).filter((e) => e.type === "promotion").map((e) => [e.type, e.sessionId, e.data])
        ).toEqual([["promotion", sessionId, { athleteId: b }]])
        yield* webhooks.remove(hook.id)
      }))
  }
}

export type { ClaimedDelivery }
