import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  type CalendarDate,
  defaultRetentionSettings,
  GroupCreate,
  GroupRepository,
  IdempotencyKeys,
  type LocalDateTime,
  LoginAttempts,
  MembershipStart,
  purgeExpired,
  ReplyInput,
  type RetainedKind,
  type RetentionCutoff,
  RetentionRepository,
  retentionCutoff,
  RetentionSettings,
  SessionRepository,
  type UserId,
  WebhookCreate,
  WebhookRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type ContractSuite, StoredIdempotencyKeys, StoredLoginFailures } from "./Contract.ts"
import { newSession } from "./fixtures.ts"

const dayMs = 86_400_000
const day = (text: string) => text as CalendarDate
const cutoffAt = (epochMs: number, clubDay = "2000-01-01"): RetentionCutoff => ({ epochMs, clubDay: day(clubDay) })

const purge = (kind: RetainedKind, cutoff: RetentionCutoff, limit = 1000) =>
  Effect.flatMap(Effect.service(RetentionRepository), (r) => r.purge(kind, cutoff, limit))

const failAt = (keys: ReadonlyArray<string>, atEpochMs: number) =>
  Effect.flatMap(
    Effect.service(LoginAttempts),
    (r) => r.admit(keys.map((key) => ({ key, freeFailures: 10 })), [1000], atEpochMs, 0)
  )

const storedLogins = (keys: ReadonlyArray<string>) =>
  Effect.flatMap(Effect.service(StoredLoginFailures), (r) => r.of(keys)).pipe(
    Effect.map((rows) => rows.map(([k]) => k))
  )

/** Settles every due delivery, the first given up (dead), the others delivered; answers how many events they were. */
const settleAll = Effect.gen(function*() {
  const webhooks = yield* WebhookRepository
  const events = new Set<number>()
  for (;;) {
    const claimed = yield* webhooks.claim("retention", Date.now() + 1000, 60_000)
    if (Option.isNone(claimed)) return events.size
    const final = events.size === 0
    events.add(claimed.value.eventId)
    yield* webhooks.settle("retention", claimed.value, {
      delivered: !final,
      statusCode: final ? 500 : 204,
      error: final ? "http-status" : null,
      atEpochMs: Date.now(),
      retryAtEpochMs: 0,
      final
    })
  }
})

/** Each suite's block shares one store, in order. */
export const retentionContract: ContractSuite = {
  title: "RetentionRepository: the purge of what is past its retention (issue 43)",
  tests: (it) => {
    it.effect("keeps an event while a delivery of it is pending; purges it, done or dead, with its attempts", () =>
      Effect.gen(function*() {
        const before = Date.now() - 1
        const webhooks = yield* WebhookRepository
        const hook = Option.getOrThrow(
          yield* webhooks.register(new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) }), 1000)
        )
        const athleteIds: Array<AthleteId> = []
        for (const name of ["r1", "r2", "r3"]) {
          athleteIds.push(
            (yield* (yield* AthleteRepository).create(
              new AthleteCreate({ id: null, name, categorie: null, niveau: null })
            )).id
          )
        }
        const session = yield* (yield* SessionRepository).create(newSession({ athleteIds }))
        for (const athleteId of athleteIds) {
          yield* (yield* AttendanceRepository).reply({
            sessionId: session.id,
            athleteId,
            input: new ReplyInput({ answer: "yes", reason: null }),
            scope: "one",
            now: "2026-01-01T12:00:00" as LocalDateTime,
            by: 1 as UserId
          })
        }
        const later = Date.now() + 60_000
        // Not older than the cutoff: nothing; older but pending: kept all the same.
        expect(yield* purge("outboxEvents", cutoffAt(before))).toBe(0)
        expect(yield* purge("outboxEvents", cutoffAt(later))).toBe(0)
        const events = yield* settleAll
        // The session's creation and the three replies.
        expect(events).toBe(4)
        expect(yield* purge("webhookAttempts", cutoffAt(before))).toBe(0)
        expect(yield* purge("outboxEvents", cutoffAt(before))).toBe(0)
        // One batch of three, then the last one (fewer than the limit: none left).
        expect(yield* purge("outboxEvents", cutoffAt(later), 3)).toBe(3)
        expect(yield* purge("outboxEvents", cutoffAt(later), 3)).toBe(1)
        expect(yield* purge("outboxEvents", cutoffAt(later))).toBe(0)
        expect(Option.getOrThrow(yield* webhooks.attempts(hook.id, 100)).length).toBe(4)
        expect(yield* purge("webhookAttempts", cutoffAt(later))).toBe(4)
        expect(yield* webhooks.attempts(hook.id, 100)).toEqual(Option.some([]))
        // A replay finds no event left to send again.
        expect(yield* webhooks.replay(hook.id, 1 as never)).toEqual(Option.some(0))
        yield* webhooks.remove(hook.id)
      }))

    it.effect("purges idempotency keys once expired before the cutoff, answered or not", () =>
      Effect.gen(function*() {
        const keys = yield* IdempotencyKeys
        const t0 = Date.now()
        const caller = 7 as UserId
        const names = ["k1", "k2", "k3"]
        for (const [i, key] of names.entries()) {
          yield* keys.claim({ caller, key, fingerprint: "f" }, t0, t0 + 1000 + i, t0 - 60_000)
        }
        const stored = Effect.flatMap(Effect.service(StoredIdempotencyKeys), (r) => r.of(caller, names))
        expect(yield* purge("idempotencyKeys", cutoffAt(t0 + 1000))).toBe(0)
        expect(yield* purge("idempotencyKeys", cutoffAt(t0 + 1002))).toBe(2)
        expect(yield* stored).toEqual(["k3"])
        expect(yield* purge("idempotencyKeys", cutoffAt(t0 + 2000))).toBe(1)
        expect(yield* stored).toEqual([])
      }))

    it.effect("purges login attempts by their last failure, the oldest first", () =>
      Effect.gen(function*() {
        const t0 = Date.now()
        const keys = ["name:a", "name:b", "name:c", "name:d"]
        for (const [i, key] of keys.entries()) yield* failAt([key], t0 + i)
        expect(yield* purge("loginAttempts", cutoffAt(t0))).toBe(0)
        expect(yield* purge("loginAttempts", cutoffAt(t0 + 10), 3)).toBe(3)
        expect(yield* storedLogins(keys)).toEqual(["name:d"])
        expect(yield* purge("loginAttempts", cutoffAt(t0 + 10), 3)).toBe(1)
        expect(yield* storedLogins(keys)).toEqual([])
      }))

    it.effect("purges memberships ended before the cutoff's day, never an open one; the group may go then", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const root = yield* groups.create(new GroupCreate({ name: "club", parentId: null, coachIds: [] }))
        const team = yield* groups.create(new GroupCreate({ name: "team", parentId: root.id, coachIds: [] }))
        const athlete = yield* (yield* AthleteRepository).create(
          new AthleteCreate({ id: null, name: "m1", categorie: null, niveau: null })
        )
        const ended = yield* groups.start(
          team.id,
          new MembershipStart({ athleteId: athlete.id, from: day("2027-01-01") })
        )
        yield* groups.end(ended.id, day("2027-03-10"))
        const open = yield* groups.start(
          root.id,
          new MembershipStart({ athleteId: athlete.id, from: day("2027-01-01") })
        )
        expect(yield* purge("endedMemberships", cutoffAt(0, "2027-03-10"))).toBe(0)
        expect(yield* purge("endedMemberships", cutoffAt(0, "2027-03-11"))).toBe(1)
        expect(yield* groups.findMembership(ended.id)).toEqual(Option.none())
        expect(yield* purge("endedMemberships", cutoffAt(0, "2999-01-01"))).toBe(0)
        expect(Option.isSome(yield* groups.findMembership(open.id))).toBe(true)
        // Its history gone, the group no longer has any membership to keep.
        expect(yield* groups.remove(team.id)).toBe(true)
      }))

    it.effect("purgeExpired: each kind after its period and not before, in batches; a kind off is kept", () =>
      Effect.gen(function*() {
        const t0 = Date.now()
        const keys = Array.from({ length: 5 }, (_, i) => `client:p${i}`)
        yield* failAt(keys, t0)
        const settings = {
          ...defaultRetentionSettings,
          periodDays: { ...defaultRetentionSettings.periodDays, loginAttempts: 2 },
          batchSize: 2,
          pauseMs: 0
        }
        const run = (nowEpochMs: number, periodDays: RetentionSettings["periodDays"] = settings.periodDays) =>
          purgeExpired(nowEpochMs).pipe(Effect.provideService(RetentionSettings, { ...settings, periodDays }))
        expect((yield* run(t0 + 2 * dayMs)).loginAttempts).toEqual({ rows: 0, batches: 1 })
        expect(yield* storedLogins(keys)).toEqual(keys)
        const off = yield* run(t0 + 3 * dayMs, { ...settings.periodDays, loginAttempts: null })
        expect(off.loginAttempts).toBeUndefined()
        expect(yield* storedLogins(keys)).toEqual(keys)
        expect((yield* run(t0 + 2 * dayMs + 1)).loginAttempts).toEqual({ rows: 5, batches: 3 })
        expect(yield* storedLogins(keys)).toEqual([])
      }))

    it.effect("a period's cutoff is its instant and the club's day of it: a membership goes by club days", () =>
      Effect.sync(() => {
        // 23:30 on 10 March in UTC is already 11 March in Paris.
        const late = Date.UTC(2027, 2, 12, 23, 30)
        expect(retentionCutoff(late, 2, "Europe/Paris")).toEqual({ epochMs: late - 2 * dayMs, clubDay: "2027-03-11" })
        expect(retentionCutoff(late, 2, "UTC").clubDay).toBe("2027-03-10")
      }))

    it.effect("two purges at once delete each row once and never fail", () =>
      Effect.gen(function*() {
        const t0 = Date.now()
        const keys = Array.from({ length: 60 }, (_, i) => `race:${String(i).padStart(2, "0")}`)
        for (let i = 0; i < keys.length; i += 10) yield* failAt(keys.slice(i, i + 10), t0)
        const purger = Effect.gen(function*() {
          let total = 0
          for (;;) {
            const deleted = yield* purge("loginAttempts", cutoffAt(t0 + 1), 4)
            total += deleted
            if (deleted < 4) return total
          }
        })
        const [a, b] = yield* Effect.all([purger, purger], { concurrency: 2 })
        expect(a + b).toBe(keys.length)
        expect(yield* storedLogins(keys)).toEqual([])
      }))
  }
}
