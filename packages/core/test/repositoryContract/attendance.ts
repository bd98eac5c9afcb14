import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  EntityNotFound,
  InvalidValue,
  PresenceMark,
  type PresenceStatus,
  type LocalDateTime,
  RepliesClosed,
  ReplyInput,
  type ReplyAnswer,
  type ReplyScope,
  SeriesCreate,
  SeriesRepository,
  type SessionId,
  SessionCreate,
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

const mark = (
  sessionId: SessionId,
  marks: ReadonlyArray<readonly [AthleteId, PresenceStatus]>,
  at: number,
  user = by
) =>
  Effect.flatMap(
    Effect.service(AttendanceRepository),
    (r) => r.mark(sessionId, marks.map(([athleteId, status]) => new PresenceMark({ athleteId, status })), user, at)
  )

const inGroup = (athleteIds: ReadonlyArray<AthleteId>, creneau: string, groupe: string | null) =>
  Effect.map(
    Effect.flatMap(
      Effect.service(SessionRepository),
      (r) =>
        r.create(new SessionCreate({ ...newSession({ athleteIds, creneau }), groupe, name: `${groupe} ${creneau}` }))
    ),
    (s) => s.id
  )

const day = (date: string) => date as LocalDateTime

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

    it.effect("an athlete leaving the session takes its reply with it; a place it frees goes to the first waiting", () =>
      Effect.gen(function*() {
        const [a, b, c, d] = yield* athletesNamed(4)
        const sessionId = yield* sessionWith([a!, b!, c!, d!])
        yield* configure(sessionId, { capacity: 1 })
        yield* reply(sessionId, a!, "yes")
        yield* reply(sessionId, b!, "yes")
        yield* reply(sessionId, c!, "yes")
        yield* reply(sessionId, d!, "no")
        yield* (yield* SessionRepository).update(sessionId, new SessionUpdate({ athleteIds: [b!, c!, d!] }))
        expect(yield* states(sessionId)).toEqual([[b, "confirmed", null], [c, "waiting", 1], [d, "declined", null]])
        // A waiting athlete leaving frees no place.
        yield* (yield* SessionRepository).update(sessionId, new SessionUpdate({ athleteIds: [b!, d!] }))
        expect(yield* states(sessionId)).toEqual([[b, "confirmed", null], [d, "declined", null]])
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

    it.effect("records marks, and every change of one as history: who, what, when", () =>
      Effect.gen(function*() {
        const [a, b] = yield* athletesNamed(2)
        const sessionId = yield* sessionWith([a!, b!])
        const first = yield* mark(sessionId, [[b!, "late"], [a!, "present"]], Date.UTC(2026, 10, 21, 19, 0, 0, 250))
        expect(first.marks.map((m) => ({ ...m }))).toEqual([
          { athleteId: a, status: "present", markedBy: by, markedAt: "2026-11-21T19:00:00.250Z" },
          { athleteId: b, status: "late", markedBy: by, markedAt: "2026-11-21T19:00:00.250Z" }
        ])
        const corrected = yield* mark(
          sessionId,
          [[a!, "present"], [b!, "excused"]],
          Date.UTC(2026, 10, 22, 9, 0, 0),
          7 as UserId
        )
        expect(corrected.marks.map((m) => [m.athleteId, m.status, m.markedBy])).toEqual([
          [a, "present", by],
          [b, "excused", 7]
        ])
        expect(corrected.history.map((h) => ({ ...h }))).toEqual([
          {
            athleteId: a,
            status: "present",
            previousStatus: null,
            changedBy: by,
            changedAt: "2026-11-21T19:00:00.250Z"
          },
          { athleteId: b, status: "late", previousStatus: null, changedBy: by, changedAt: "2026-11-21T19:00:00.250Z" },
          {
            athleteId: b,
            status: "excused",
            previousStatus: "late",
            changedBy: 7,
            changedAt: "2026-11-22T09:00:00.000Z"
          }
        ])
        expect(Option.getOrThrow(yield* (yield* AttendanceRepository).presence(sessionId))).toEqual(corrected)
      }))

    it.effect("refuses marks of athletes not in the session, or of no session; nothing is written", () =>
      Effect.gen(function*() {
        const [a, b, c] = yield* athletesNamed(3)
        const sessionId = yield* sessionWith([a!])
        const strangers = yield* Effect.exit(mark(sessionId, [[a!, "present"], [c!, "absent"], [b!, "late"]], 0))
        expect(Exit.findErrorOption(strangers)).toEqual(
          Option.some(
            new InvalidValue({ field: "marks", reason: `athletes ${b}, ${c} are not athletes of session ${sessionId}` })
          )
        )
        const nowhere = yield* Effect.exit(mark(999_999 as SessionId, [[a!, "present"]], 0))
        expect(Exit.findErrorOption(nowhere)).toEqual(
          Option.some(new EntityNotFound({ entity: "Session", id: 999_999 }))
        )
        const presence = Option.getOrThrow(yield* (yield* AttendanceRepository).presence(sessionId))
        expect([presence.marks, presence.history]).toEqual([[], []])
        expect(yield* (yield* AttendanceRepository).presence(999_999 as SessionId)).toEqual(Option.none())
      }))

    it.effect("figures count the marks of a period's sessions by athlete and by group, with the rate; the export lists them", () =>
      Effect.gen(function*() {
        const [a, b] = yield* athletesNamed(2)
        const s1 = yield* inGroup([a!, b!], "2031-09-01T18:00:00", "Seniors")
        const s2 = yield* inGroup([a!, b!], "2031-09-08T18:00:00", "Seniors")
        const s3 = yield* inGroup([a!], "2031-09-30T10:00:00", "Cadets")
        const s4 = yield* inGroup([a!], "2031-09-15T10:00:00", null)
        const outside = yield* inGroup([a!, b!], "2031-10-01T00:00:00", "Seniors")
        yield* mark(s1, [[a!, "present"], [b!, "absent"]], 0)
        yield* mark(s2, [[a!, "late"], [b!, "excused"]], 0)
        yield* mark(s3, [[a!, "absent"]], 0)
        yield* mark(s4, [[a!, "present"]], 0)
        yield* mark(outside, [[a!, "absent"], [b!, "absent"]], 0)
        const repository = yield* AttendanceRepository
        const figures = yield* repository.figures(day("2031-09-01T00:00:00"), day("2031-10-01T00:00:00"), null)
        const zero = { present: 0, late: 0, absent: 0, excused: 0 }
        expect(figures.athletes.map((x) => ({ ...x }))).toEqual([
          { ...zero, athleteId: a, present: 2, late: 1, absent: 1, rate: 0.75 },
          { ...zero, athleteId: b, absent: 1, excused: 1, rate: 0 }
        ])
        expect(figures.groups.map((x) => ({ ...x }))).toEqual([
          { ...zero, groupe: null, present: 1, rate: 1 },
          { ...zero, groupe: "Cadets", absent: 1, rate: 0 },
          { ...zero, groupe: "Seniors", present: 1, late: 1, absent: 1, excused: 1, rate: 2 / 3 }
        ])
        const own = yield* repository.figures(day("2031-09-01T00:00:00"), day("2031-10-01T00:00:00"), b!)
        expect(own.athletes.map((x) => x.athleteId)).toEqual([b])
        expect(own.groups.map((x) => [x.groupe, x.rate])).toEqual([["Seniors", 0]])
        const empty = yield* repository.figures(day("2030-01-01T00:00:00"), day("2030-01-02T00:00:00"), null)
        expect(empty).toEqual({ athletes: [], groups: [] })
        const lines = yield* repository.presenceLines(day("2031-09-01T00:00:00"), day("2031-10-01T00:00:00"))
        expect(lines.map((l) => [l.sessionId, l.creneau, l.groupe, l.athleteId, l.athleteName, l.status])).toEqual([
          [s1, "2031-09-01T18:00:00", "Seniors", a, "a0", "present"],
          [s1, "2031-09-01T18:00:00", "Seniors", b, "a1", "absent"],
          [s2, "2031-09-08T18:00:00", "Seniors", a, "a0", "late"],
          [s2, "2031-09-08T18:00:00", "Seniors", b, "a1", "excused"],
          [s4, "2031-09-15T10:00:00", null, a, "a0", "present"],
          [s3, "2031-09-30T10:00:00", "Cadets", a, "a0", "absent"]
        ])
        expect(lines[0]!.sessionName).toBe("Seniors 2031-09-01T18:00:00")
      }))
  }
}
