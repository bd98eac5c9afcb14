import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  type CalendarDate,
  CoachCreate,
  type CoachId,
  CoachRepository,
  type Group,
  GroupCreate,
  type GroupId,
  GroupRepository,
  GroupUpdate,
  type LocalDateTime,
  type MembershipId,
  MembershipStart,
  SeriesCreate,
  SeriesRepository,
  SessionCreate,
  SessionRepository,
  WebhookCreate,
  WebhookRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newSession } from "./fixtures.ts"

const day = (text: string) => text as CalendarDate
const everything = { after: 0, limit: 1000 }

const newAthlete = (name: string) =>
  Effect.flatMap(
    Effect.service(AthleteRepository),
    (r) => r.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null }))
  ).pipe(Effect.map((a) => a.id))

const newCoach = (name: string) =>
  Effect.flatMap(Effect.service(CoachRepository), (r) => r.create(new CoachCreate({ id: null, name }))).pipe(
    Effect.map((c) => c.id)
  )

const create = (name: string, parentId: GroupId | null, coachIds: ReadonlyArray<CoachId> = []) =>
  Effect.flatMap(Effect.service(GroupRepository), (r) => r.create(new GroupCreate({ name, parentId, coachIds })))

const start = (groupId: GroupId, athleteId: AthleteId, from: string) =>
  Effect.flatMap(
    Effect.service(GroupRepository),
    (r) => r.start(groupId, new MembershipStart({ athleteId, from: day(from) }))
  )

const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

/** The tests share one store, in order: the first group created is the club's root. */
export const membershipRepositoryContract: ContractSuite = {
  title: "GroupRepository: groups and dated memberships (issue 41)",
  tests: (it) => {
    let root: Group
    let section: Group
    let team: Group
    let sectionCoach: CoachId
    let teamCoach: CoachId

    it.effect("the first group is the root; a second root is refused naming parentId", () =>
      Effect.gen(function*() {
        root = yield* create("Club", null)
        expect(root).toMatchObject({ name: "Club", parentId: null, coachIds: [] })
        const refused = yield* failureOf(create("Other club", null))
        expect(refused).toMatchObject({ _tag: "InvalidValue", field: "parentId" })
      }))

    it.effect("a group under a parent, its coaches ascending and once; unknown parent or coaches are named", () =>
      Effect.gen(function*() {
        sectionCoach = yield* newCoach("Section coach")
        teamCoach = yield* newCoach("Team coach")
        section = yield* create("Athletics", root.id, [teamCoach, sectionCoach, teamCoach].sort((a, b) => b - a))
        expect(section.coachIds).toEqual([sectionCoach, teamCoach].sort((a, b) => a - b))
        yield* Effect.flatMap(
          Effect.service(GroupRepository),
          (r) => r.update(section.id, new GroupUpdate({ coachIds: [sectionCoach] }))
        )
        section = Option.getOrThrow(
          yield* Effect.flatMap(Effect.service(GroupRepository), (r) => r.findById(section.id))
        )
        expect(section.coachIds).toEqual([sectionCoach])
        team = yield* create("U12", section.id, [teamCoach])
        expect(yield* failureOf(create("Orphan", 987_654 as GroupId))).toMatchObject({
          _tag: "UnknownReferences",
          field: "parentId",
          ids: [987_654]
        })
        expect(yield* failureOf(create("Nobody's", root.id, [987_654 as CoachId]))).toMatchObject({
          _tag: "UnknownReferences",
          field: "coachIds"
        })
        expect(yield* failureOf(create("U12", root.id))).toMatchObject({ _tag: "MembershipConflict", field: "name" })
      }))

    it.effect("coachesAbove: the group's coaches and those of every group above it; none for an unknown group", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        expect(Option.getOrThrow(yield* groups.coachesAbove(team.id))).toEqual(
          [sectionCoach, teamCoach].sort((a, b) => a - b)
        )
        expect(Option.getOrThrow(yield* groups.coachesAbove(section.id))).toEqual([sectionCoach])
        expect(Option.getOrThrow(yield* groups.coachesAbove(root.id))).toEqual([])
        expect(yield* groups.coachesAbove(987_654 as GroupId)).toEqual(Option.none())
        expect((yield* groups.ofCoach(teamCoach, 10)).map((g) => g.id)).toEqual([team.id])
      }))

    it.effect("lists the groups in id order after a position, at most a limit", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        expect((yield* groups.list(everything)).map((g) => g.id)).toEqual([root.id, section.id, team.id])
        expect((yield* groups.list({ after: root.id, limit: 1 })).map((g) => g.id)).toEqual([section.id])
      }))

    it.effect("a rename carries the sessions and series whose groupe was the old name, and only those", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const inGroup = yield* sessions.create(new SessionCreate({ ...newSession(), groupe: "U12" }))
        const label = yield* sessions.create(new SessionCreate({ ...newSession(), groupe: "U12 girls" }))
        const series = yield* (yield* SeriesRepository).create(
          new SeriesCreate({
            name: "Track",
            groupe: "U12",
            coachId: null,
            duree: 60,
            start: "2026-03-23T18:00:00" as LocalDateTime,
            rrule: "FREQ=WEEKLY;COUNT=1",
            athleteIds: []
          }),
          ["2026-03-23T18:00:00" as LocalDateTime],
          "2026-03-24T00:00:00" as LocalDateTime
        )
        const renamed = yield* (yield* GroupRepository).update(team.id, new GroupUpdate({ name: "U13" }))
        team = Option.getOrThrow(renamed)
        expect(team.name).toBe("U13")
        const read = (id: typeof inGroup.id) => Effect.map(sessions.findById(id), Option.getOrThrow)
        expect((yield* read(inGroup.id)).groupe).toBe("U13")
        expect((yield* read(label.id)).groupe).toBe("U12 girls")
        const after = Option.getOrThrow(yield* (yield* SeriesRepository).findById(series.id))
        expect(after.groupe).toBe("U13")
        expect(after.revision).toBe(series.revision + 1)
        expect((yield* read(series.occurrences[0]!.sessionId)).groupe).toBe("U13")
        expect(yield* failureOf((yield* GroupRepository).update(team.id, new GroupUpdate({ name: "Athletics" }))))
          .toMatchObject({ _tag: "MembershipConflict", field: "name" })
        expect(yield* (yield* GroupRepository).update(987_654 as GroupId, new GroupUpdate({ name: "X" }))).toEqual(
          Option.none()
        )
      }))

    it.effect("a move: never under itself (InvalidValue) or below itself (MembershipConflict), both naming parentId", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const move = (id: GroupId, parentId: GroupId) => groups.update(id, new GroupUpdate({ parentId }))
        expect(yield* failureOf(move(section.id, section.id))).toMatchObject({
          _tag: "InvalidValue",
          field: "parentId"
        })
        expect(yield* failureOf(move(section.id, team.id))).toMatchObject({
          _tag: "MembershipConflict",
          field: "parentId"
        })
        expect(yield* failureOf(move(root.id, team.id))).toMatchObject({
          _tag: "MembershipConflict",
          field: "parentId"
        })
        expect(yield* failureOf(move(team.id, 987_654 as GroupId))).toMatchObject({
          _tag: "UnknownReferences",
          field: "parentId"
        })
        const moved = Option.getOrThrow(yield* move(team.id, root.id))
        expect(moved.parentId).toBe(root.id)
        expect(Option.getOrThrow(yield* groups.coachesAbove(team.id))).toEqual([teamCoach])
        team = Option.getOrThrow(yield* move(team.id, section.id))
      }))

    it.effect("memberships: the roster on a day before, within and after; ended once; the history keeps it", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const ann = yield* newAthlete("Ann")
        const bob = yield* newAthlete("Bob")
        const first = yield* start(team.id, ann, "2027-03-01")
        expect(first).toMatchObject({ groupId: team.id, athleteId: ann, from: "2027-03-01", until: null })
        const other = yield* start(team.id, bob, "2027-02-01")
        const roster = (on: string) =>
          Effect.map(groups.roster(team.id, day(on), everything), (r) => Option.getOrThrow(r).map((m) => m.id))
        expect(yield* roster("2027-02-28")).toEqual([other.id])
        expect(yield* roster("2027-03-01")).toEqual([first.id, other.id])
        const ended = Option.getOrThrow(yield* groups.end(first.id, day("2027-03-10")))
        expect(ended).toMatchObject({ id: first.id, from: "2027-03-01", until: "2027-03-10" })
        expect(yield* roster("2027-03-10")).toEqual([first.id, other.id])
        expect(yield* roster("2027-03-11")).toEqual([other.id])
        expect(yield* failureOf(groups.end(first.id, day("2027-04-01")))).toMatchObject({
          _tag: "MembershipConflict",
          field: "until"
        })
        expect(yield* failureOf(groups.end(other.id, day("2027-01-31")))).toMatchObject({
          _tag: "InvalidValue",
          field: "until"
        })
        expect(yield* groups.end(987_654 as MembershipId, day("2027-01-31"))).toEqual(Option.none())
        expect(Option.getOrThrow(yield* groups.findMembership(first.id))).toEqual(ended)
        const history = Option.getOrThrow(yield* groups.history(team.id, everything))
        expect(history).toEqual([ended, other])
        expect(Option.getOrThrow(yield* groups.history(team.id, { after: first.id, limit: 5 }))).toEqual([other])
        expect(Option.getOrThrow(yield* groups.ofAthlete(ann, everything))).toEqual([ended])
        expect(yield* groups.roster(987_654 as GroupId, day("2027-03-01"), everything)).toEqual(Option.none())
        expect(yield* groups.ofAthlete(987_654 as AthleteId, everything)).toEqual(Option.none())
        expect((yield* groups.ofMemberOn(ann, day("2027-03-05"), 10)).map((g) => g.id)).toEqual([team.id])
        expect(yield* groups.ofMemberOn(ann, day("2027-03-11"), 10)).toEqual([])
      }))

    it.effect("a membership sharing a day with another of the athlete in the group is refused; a return is new", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const cid = yield* newAthlete("Cid")
        const first = yield* start(team.id, cid, "2027-05-01")
        for (const from of ["2027-05-01", "2027-06-01", "2027-04-01"]) {
          expect(yield* failureOf(start(team.id, cid, from))).toMatchObject({
            _tag: "MembershipConflict",
            field: "from"
          })
        }
        yield* groups.end(first.id, day("2027-05-31"))
        expect(yield* failureOf(start(team.id, cid, "2027-05-31"))).toMatchObject({ _tag: "MembershipConflict" })
        const back = yield* start(team.id, cid, "2027-06-01")
        expect(back.id).toBeGreaterThan(first.id)
        expect((yield* start(section.id, cid, "2027-05-01")).groupId).toBe(section.id)
        expect(yield* failureOf(start(team.id, 987_654 as AthleteId, "2027-05-01"))).toMatchObject({
          _tag: "UnknownReferences",
          field: "athleteId"
        })
        expect(yield* failureOf(start(987_654 as GroupId, cid, "2027-05-01"))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Group"
        })
      }))

    it.effect("two writers at once: one membership of two overlapping ones is kept; two crossed moves make no cycle", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const fay = yield* newAthlete("Fay")
        const outcomes = yield* Effect.all(
          [start(team.id, fay, "2027-09-01"), start(team.id, fay, "2027-10-01")].map(Effect.result),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter((o) => o._tag === "Success")).toHaveLength(1)
        expect(outcomes.filter((o) => o._tag === "Failure").map((o) => o._tag === "Failure" && o.failure._tag))
          .toEqual(["MembershipConflict"])
        expect(Option.getOrThrow(yield* groups.ofAthlete(fay, everything))).toHaveLength(1)
        const left = yield* create("Left", root.id)
        const right = yield* create("Right", root.id)
        const moves = yield* Effect.all(
          [
            groups.update(left.id, new GroupUpdate({ parentId: right.id })),
            groups.update(right.id, new GroupUpdate({ parentId: left.id }))
          ].map(Effect.result),
          { concurrency: "unbounded" }
        )
        expect(moves.filter((o) => o._tag === "Success")).toHaveLength(1)
        // Both still lie under the root: walking up from each reaches it within a few steps.
        for (const id of [left.id, right.id]) {
          let at: GroupId | null = id
          let steps = 0
          while (at !== null && at !== root.id && steps++ < 5) {
            at = Option.getOrThrow(yield* groups.findById(at)).parentId
          }
          expect(at).toBe(root.id)
        }
      }))

    it.effect("a membership started or ended is an outbox event of its group, written with the change", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const webhooks = yield* WebhookRepository
        const hook = Option.getOrThrow(
          yield* webhooks.register(new WebhookCreate({ url: "http://a.test/hook", secret: "s".repeat(16) }), 1000)
        )
        const eve = yield* newAthlete("Eve")
        const started = yield* start(team.id, eve, "2027-08-01")
        // Refused: no event.
        yield* Effect.flip(start(team.id, eve, "2027-08-02"))
        yield* Effect.flip(groups.end(started.id, day("2027-07-01")))
        const ended = Option.getOrThrow(yield* groups.end(started.id, day("2027-08-31")))
        const delivered = { delivered: true, statusCode: 204, error: null, atEpochMs: Date.now(), retryAtEpochMs: 0 }
        const bodies: Array<Record<string, unknown>> = []
        const claims: Array<{ sessionId: number | null; groupId: number | null }> = []
        for (;;) {
          const claimed = yield* webhooks.claim("drain", Date.now() + 1000, 60_000)
          if (Option.isNone(claimed)) break
          bodies.push(JSON.parse(claimed.value.body))
          claims.push({ sessionId: claimed.value.sessionId, groupId: claimed.value.groupId })
          yield* webhooks.settle("drain", claimed.value, delivered)
        }
        expect(bodies.map(({ id: _id, occurredAt: _at, ...rest }) => rest)).toEqual([
          {
            type: "membershipStarted",
            groupId: team.id,
            data: { membershipId: started.id, athleteId: eve, from: "2027-08-01", until: null }
          },
          {
            type: "membershipEnded",
            groupId: team.id,
            data: { membershipId: ended.id, athleteId: eve, from: "2027-08-01", until: "2027-08-31" }
          }
        ])
        expect(claims).toEqual([{ sessionId: null, groupId: team.id }, { sessionId: null, groupId: team.id }])
        const log = Option.getOrThrow(yield* webhooks.attempts(hook.id, 10))
        expect(log.map((a) => [a.sessionId, a.groupId, a.delivered])).toEqual([
          [null, team.id, true],
          [null, team.id, true]
        ])
        yield* webhooks.remove(hook.id)
      }))

    it.effect("a group with subgroups or memberships is not deleted; an empty one is, once", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        expect(yield* failureOf(groups.remove(section.id))).toMatchObject({ _tag: "MembershipConflict" })
        expect(yield* failureOf(groups.remove(team.id))).toMatchObject({ _tag: "MembershipConflict" })
        const empty = yield* create("Empty", section.id, [teamCoach])
        expect(yield* groups.remove(empty.id)).toBe(true)
        expect(yield* groups.findById(empty.id)).toEqual(Option.none())
        expect(yield* groups.remove(empty.id)).toBe(false)
      }))

    it.effect("a deleted athlete's memberships go with it; a deleted coach leaves its groups", () =>
      Effect.gen(function*() {
        const groups = yield* GroupRepository
        const dan = yield* newAthlete("Dan")
        yield* start(section.id, dan, "2027-01-01")
        yield* (yield* AthleteRepository).delete(dan)
        expect(yield* groups.ofAthlete(dan, everything)).toEqual(Option.none())
        expect(Option.getOrThrow(yield* groups.history(section.id, everything)).some((m) => m.athleteId === dan))
          .toBe(false)
        const leaving = yield* newCoach("Leaving")
        const coached = yield* create("Coached", root.id, [leaving])
        yield* (yield* CoachRepository).delete(leaving)
        expect(Option.getOrThrow(yield* groups.findById(coached.id)).coachIds).toEqual([])
      }))
  }
}
