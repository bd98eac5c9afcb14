import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  EntityNotFound,
  InvalidValue,
  type LocalDateTime,
  RepliesClosed,
  ReplyInput,
  type ReplyAnswer,
  type ReplyScope,
  SeriesCreate,
  SeriesRepository,
  type SessionId,
  SessionRepository,
  SessionUpdate,
  type UserId
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newSession } from "./fixtures.ts"

/** Before every session these tests create. */
const now = "2026-01-01T12:00:00" as LocalDateTime
const by = 1 as UserId

const athletesNamed = (count: number) =>
  Effect.gen(function*() {
    const athletes = yield* AthleteRepository
    const ids: Array<AthleteId> = []
    for (let i = 0; i < count; i++) {
      ids.push(
        (yield* athletes.create(new AthleteCreate({ id: null, name: `a${i}`, categorie: null, niveau: null }))).id
      )
    }
    return ids
  })

const sessionWith = (athleteIds: ReadonlyArray<AthleteId>, creneau = "2026-11-21T18:30:00") =>
  Effect.map(
    Effect.flatMap(Effect.service(SessionRepository), (r) => r.create(newSession({ athleteIds, creneau }))),
    (s) => s.id
  )

const reply = (
  sessionId: SessionId,
  athleteId: AthleteId,
  answer: ReplyAnswer,
  options: { readonly reason?: string; readonly scope?: ReplyScope; readonly at?: LocalDateTime } = {}
) =>
  Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
    r.reply({
      sessionId,
      athleteId,
      input: new ReplyInput({ answer, reason: options.reason ?? null }),
      scope: options.scope ?? "one",
      now: options.at ?? now,
      by
    }))

const configure = (sessionId: SessionId, settings: ConstructorParameters<typeof AttendanceSettings>[0]) =>
  Effect.flatMap(Effect.service(AttendanceRepository), (r) => r.configure(sessionId, new AttendanceSettings(settings)))

const states = (sessionId: SessionId) =>
  Effect.gen(function*() {
    const replies = Option.getOrThrow(yield* (yield* AttendanceRepository).replies(sessionId))
    return replies.replies.map((r) => [r.athleteId, r.state, r.waitingPosition] as const)
  })

export const attendanceRepositoryContract: ContractSuite = {
  title: "AttendanceRepository",
  tests: (it) => {
    it.effect("a session without replies: no capacity, no cut-off, nothing confirmed; an unknown session has none", () =>
      Effect.gen(function*() {
        const sessionId = yield* sessionWith([])
        const replies = Option.getOrThrow(yield* (yield* AttendanceRepository).replies(sessionId))
        expect({ ...replies }).toEqual({
          sessionId,
          capacity: null,
          replyCutoff: null,
          confirmed: 0,
          waiting: 0,
          replies: []
        })
        expect(yield* (yield* AttendanceRepository).replies(999_999 as SessionId)).toEqual(Option.none())
      }))

    it.effect("yes within the capacity confirms, beyond it waits in reply order; maybe and no take no place", () =>
      Effect.gen(function*() {
        const [a, b, c, d, e] = yield* athletesNamed(5)
        const sessionId = yield* sessionWith([a!, b!, c!, d!, e!])
        yield* configure(sessionId, { capacity: 2 })
        const [first] = yield* reply(sessionId, c!, "yes")
        expect({ ...first! }).toEqual({
          sessionId,
          athleteId: c,
          answer: "yes",
          reason: null,
          state: "confirmed",
          waitingPosition: null
        })
        yield* reply(sessionId, e!, "maybe", { reason: "maybe late" })
        yield* reply(sessionId, a!, "yes")
        const [waiting] = yield* reply(sessionId, d!, "yes")
        expect(waiting!.state).toBe("waiting")
        expect(waiting!.waitingPosition).toBe(1)
        yield* reply(sessionId, b!, "yes")
        expect(yield* states(sessionId)).toEqual([
          [c, "confirmed", null],
          [a, "confirmed", null],
          [d, "waiting", 1],
          [b, "waiting", 2],
          [e, "maybe", null]
        ])
        const all = Option.getOrThrow(yield* (yield* AttendanceRepository).replies(sessionId))
        expect([all.capacity, all.confirmed, all.waiting]).toEqual([2, 2, 2])
        expect(all.replies.find((r) => r.athleteId === e)!.reason).toBe("maybe late")
      }))

    it.effect("a confirmed athlete saying no confirms the first waiting at once; a yes repeated keeps its place", () =>
      Effect.gen(function*() {
        const [a, b, c, d] = yield* athletesNamed(4)
        const sessionId = yield* sessionWith([a!, b!, c!, d!])
        yield* configure(sessionId, { capacity: 1 })
        for (const athlete of [a!, b!, c!, d!]) yield* reply(sessionId, athlete, "yes")
        yield* reply(sessionId, c!, "yes", { reason: "still keen" })
        const [declined] = yield* reply(sessionId, a!, "no", { reason: "injured" })
        expect([declined!.state, declined!.reason]).toEqual(["declined", "injured"])
        expect(yield* states(sessionId)).toEqual([
          [b, "confirmed", null],
          [c, "waiting", 1],
          [d, "waiting", 2],
          [a, "declined", null]
        ])
        // A yes again goes to the end of the list.
        yield* reply(sessionId, a!, "yes")
        expect((yield* states(sessionId)).slice(1, 4)).toEqual([[c, "waiting", 1], [d, "waiting", 2], [
          a,
          "waiting",
          3
        ]])
      }))

    it.effect("a larger capacity, or none, confirms the first waiting; a smaller one un-confirms no one", () =>
      Effect.gen(function*() {
        const [a, b, c, d] = yield* athletesNamed(4)
        const sessionId = yield* sessionWith([a!, b!, c!, d!])
        yield* configure(sessionId, { capacity: 1, replyCutoff: "2026-11-20T12:00:00" as LocalDateTime })
        for (const athlete of [a!, b!, c!, d!]) yield* reply(sessionId, athlete, "yes")
        const grown = yield* configure(sessionId, { capacity: 2 })
        expect([grown.confirmed, grown.waiting, grown.replyCutoff]).toEqual([2, 2, "2026-11-20T12:00:00"])
        const shrunk = yield* configure(sessionId, { capacity: 0 })
        expect([shrunk.confirmed, shrunk.waiting]).toEqual([2, 2])
        const unlimited = yield* configure(sessionId, { capacity: null, replyCutoff: null })
        expect([unlimited.capacity, unlimited.replyCutoff, unlimited.confirmed, unlimited.waiting]).toEqual([
          null,
          null,
          4,
          0
        ])
        expect(Exit.findErrorOption(yield* Effect.exit(configure(999_999 as SessionId, { capacity: 1 })))).toEqual(
          Option.some(new EntityNotFound({ entity: "Session", id: 999_999 }))
        )
      }))

    it.effect("refuses a reply after the cut-off, or once the session has started, to a non-member, or to no session; nothing is written", () =>
      Effect.gen(function*() {
        const [a, outsider] = yield* athletesNamed(2)
        const sessionId = yield* sessionWith([a!])
        yield* configure(sessionId, { replyCutoff: "2026-11-20T12:00:00" as LocalDateTime })
        const late = yield* Effect.exit(reply(sessionId, a!, "yes", { at: "2026-11-20T12:00:00" as LocalDateTime }))
        expect(Exit.findErrorOption(late)).toEqual(
          Option.some(new RepliesClosed({ sessionId, closedAt: "2026-11-20T12:00:00" }))
        )
        yield* configure(sessionId, { replyCutoff: null })
        const started = yield* Effect.exit(reply(sessionId, a!, "yes", { at: "2026-11-21T18:30:00" as LocalDateTime }))
        expect(Exit.findErrorOption(started)).toEqual(
          Option.some(new RepliesClosed({ sessionId, closedAt: "2026-11-21T18:30:00" }))
        )
        const stranger = yield* Effect.exit(reply(sessionId, outsider!, "yes"))
        expect(Exit.findErrorOption(stranger)).toEqual(
          Option.some(
            new InvalidValue({
              field: "athleteId",
              reason: `athlete ${outsider} is not an athlete of session ${sessionId}`
            })
          )
        )
        const nowhere = yield* Effect.exit(reply(999_999 as SessionId, a!, "yes"))
        expect(Exit.findErrorOption(nowhere)).toEqual(
          Option.some(new EntityNotFound({ entity: "Session", id: 999_999 }))
        )
        expect(yield* states(sessionId)).toEqual([])
      }))

    it.effect("an athlete leaving the session takes its reply with it", () =>
      Effect.gen(function*() {
        const [a, b] = yield* athletesNamed(2)
        const sessionId = yield* sessionWith([a!, b!])
        yield* reply(sessionId, a!, "yes")
        yield* reply(sessionId, b!, "no")
        yield* (yield* SessionRepository).update(sessionId, new SessionUpdate({ athleteIds: [b!] }))
        expect(yield* states(sessionId)).toEqual([[b, "declined", null]])
      }))

    it.effect("a reply for the following occurrences of a series writes this one and every later one the athlete belongs to", () =>
      Effect.gen(function*() {
        const [a] = yield* athletesNamed(1)
        const series = yield* (yield* SeriesRepository).create(
          new SeriesCreate({
            name: "Weekly",
            groupe: null,
            coachId: null,
            duree: 60,
            start: "2026-03-02T18:00:00" as LocalDateTime,
            rrule: "FREQ=WEEKLY;COUNT=4",
            athleteIds: [a!]
          }),
          ["02", "09", "16", "23"].map((day) => `2026-03-${day}T18:00:00` as LocalDateTime),
          "2026-04-01T00:00:00" as LocalDateTime
        )
        const [first, second, third, fourth] = series.occurrences.map((o) => o.sessionId)
        yield* configure(fourth!, { replyCutoff: "2026-01-01T00:00:00" as LocalDateTime })
        const written = yield* reply(second!, a!, "no", { scope: "following", reason: "away in March" })
        expect(written.map((r) => [r.sessionId, r.state, r.reason])).toEqual([
          [second, "declined", "away in March"],
          [third, "declined", "away in March"]
        ])
        expect(yield* states(first!)).toEqual([])
        expect(yield* states(fourth!)).toEqual([])
        const one = yield* reply(third!, a!, "yes")
        expect(one.map((r) => [r.sessionId, r.state])).toEqual([[third, "confirmed"]])
      }))
  }
}
