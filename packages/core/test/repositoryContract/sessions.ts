import {
  ActivityId,
  ActivityRepository,
  AthleteCreate,
  AthleteId,
  AthleteRepository,
  CoachCreate,
  CoachId,
  CoachRepository,
  type LocalDateTime,
  Session,
  SessionId,
  SessionQuery,
  SessionRepository,
  SessionUpdate
} from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { newActivity, newSession } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

const createAthletes = (...names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const athletes = yield* AthleteRepository
    return yield* Effect.forEach(names, (name) =>
      athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null })).pipe(
        Effect.map((athlete) =>
          athlete.id
        )
      ))
  })

/** Activities must start in a session; they are created in a holding session and moved from there. */
const createActivities = (...names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sessions = yield* SessionRepository
    const activities = yield* ActivityRepository
    const holding = yield* sessions.create(newSession({ name: "holding" }))
    const ids = yield* Effect.forEach(names, (name) =>
      activities.create(newActivity(holding.id, name)).pipe(Effect.map((activity) => activity.id)))
    return { holding: holding.id, ids }
  })

const sessionIdsOf = (summaries: ReadonlyArray<{ readonly id: SessionId }>) => summaries.map((summary) => summary.id)

export const sessionRepositoryContract: ContractSuite = {
  title: "SessionRepository",
  tests: (it) => {
    it.effect("creates a session with its coach, athletes and activities and reads it back", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const activities = yield* ActivityRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Coach" }))
        const [a1, a2] = yield* createAthletes("a1", "a2")
        const { holding, ids: [act1, act2] } = yield* createActivities("act1", "act2")

        const created = yield* sessions.create(newSession({
          name: "Saturday",
          creneau: "2026-11-21T18:30:00",
          duree: 5_000_000_000,
          coachId: coach.id,
          athleteIds: [a2!, a1!, a2!],
          activiteIds: [act2!, act1!, act1!]
        }))
        assert.instanceOf(created, Session)
        expect(created).toEqual(
          new Session({
            id: created.id,
            name: "Saturday",
            isRecurrent: false,
            creneau: "2026-11-21T18:30:00" as LocalDateTime,
            duree: 5_000_000_000,
            groupe: "A",
            coachId: coach.id,
            athleteIds: [a1!, a2!].sort((x, y) => x - y),
            activiteIds: [act1!, act2!].sort((x, y) => x - y)
          })
        )
        expect(yield* sessions.findById(created.id)).toEqual(Option.some(created))
        expect(yield* sessions.list()).toContainEqual(created)

        // The listed activities moved out of the holding session.
        expect(Option.getOrThrow(yield* activities.findById(act1!)).sessionId).toBe(created.id)
        expect(Option.getOrThrow(yield* sessions.findById(holding)).activiteIds).toEqual([])
      }))

    it.effect("keeps null fields and an empty session", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const created = yield* sessions.create(newSession({ name: "bare", creneau: null, duree: null }))
        expect(created).toMatchObject({ creneau: null, duree: null, coachId: null, athleteIds: [], activiteIds: [] })
        expect(yield* sessions.findById(created.id)).toEqual(Option.some(created))
      }))

    it.effect("lists the sessions whose fields hold a filter's values, in id order", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const coaches = yield* CoachRepository
        const [first, second] = yield* Effect.forEach(
          ["first", "second"],
          (name) => coaches.create(new CoachCreate({ id: null, name }))
        )
        const ofFirst = yield* sessions.create(newSession({ name: "one", coachId: first!.id }))
        const ofSecond = yield* sessions.create(newSession({ name: "two", coachId: second!.id, duree: 45 }))
        const againOfFirst = yield* sessions.create(newSession({ name: "three", coachId: first!.id, creneau: null }))
        const withoutCoach = yield* sessions.create(newSession({ name: "four" }))

        expect(yield* sessions.list({ coachId: first!.id })).toEqual([ofFirst, againOfFirst])
        expect(yield* sessions.list({ coachId: second!.id, duree: 45 })).toEqual([ofSecond])
        expect(yield* sessions.list({ coachId: second!.id, duree: 90 })).toEqual([])
        expect(yield* sessions.list({ coachId: first!.id, creneau: null })).toEqual([againOfFirst])
        expect(
          yield* sessions.list({ coachId: first!.id, creneau: "2026-11-21T18:30:00" as LocalDateTime })
        ).toEqual([ofFirst])
        expect(yield* sessions.list({ coachId: null })).toContainEqual(withoutCoach)
        expect((yield* sessions.list({ coachId: null })).map((session) => session.coachId)).not.toContain(first!.id)
        expect(yield* sessions.list({})).toEqual(yield* sessions.list())
      }))

    it.effect("create with unknown ids names every unknown id of the field and writes nothing", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const activities = yield* ActivityRepository
        const [known] = yield* createAthletes("known")
        const { holding, ids: [activity] } = yield* createActivities("stays")
        const before = yield* sessions.summaries()
        const unknownAthletes = [AthleteId.make(900_002), AthleteId.make(900_001)]

        expect(
          yield* Effect.flip(sessions.create(newSession({
            athleteIds: [known!, ...unknownAthletes, unknownAthletes[0]!],
            activiteIds: [activity!]
          })))
        ).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds", entity: "Athlete", ids: [900_001, 900_002] })

        expect(
          yield* Effect.flip(sessions.create(newSession({
            athleteIds: [known!],
            activiteIds: [activity!, ActivityId.make(900_003)]
          })))
        ).toMatchObject({ _tag: "UnknownReferences", field: "activiteIds", entity: "Activity", ids: [900_003] })

        expect(
          yield* Effect.flip(sessions.create(newSession({
            coachId: CoachId.make(900_004),
            athleteIds: [known!],
            activiteIds: [activity!]
          })))
        ).toMatchObject({ _tag: "UnknownReferences", field: "coachId", entity: "Coach", ids: [900_004] })

        expect(yield* sessions.summaries()).toEqual(before)
        expect(Option.getOrThrow(yield* activities.findById(activity!)).sessionId).toBe(holding)
        expect(yield* sessions.summariesOfAthlete(known!, {})).toEqual([])
      }))

    it.effect("create checks athleteIds, then activiteIds, then coachId, then a supplied id; the first refused is the error", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const taken = SessionId.make((yield* sessions.create(newSession({ name: "holds its id" }))).id)
        const unknown = {
          athleteIds: [AthleteId.make(901_001)],
          activiteIds: [ActivityId.make(901_002)],
          coachId: CoachId.make(901_003)
        }
        const refusal = (fields: Parameters<typeof newSession>[0]) =>
          Effect.flip(sessions.create(newSession({ id: taken, ...fields })))

        expect(yield* refusal(unknown)).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds" })
        expect(yield* refusal({ ...unknown, athleteIds: [] })).toMatchObject({
          _tag: "UnknownReferences",
          field: "activiteIds"
        })
        expect(yield* refusal({ coachId: unknown.coachId })).toMatchObject({
          _tag: "UnknownReferences",
          field: "coachId"
        })
        expect(yield* refusal({})).toMatchObject({ _tag: "IdAlreadyInUse", entity: "Session", id: taken })
        expect(Option.getOrThrow(yield* sessions.findById(taken)).name).toBe("holds its id")
      }))

    it.effect("update applies duree, athletes and activities, each only when present", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const activities = yield* ActivityRepository
        const [a1, a2, a3] = yield* createAthletes("u1", "u2", "u3")
        const { ids: [act1, act2, act3] } = yield* createActivities("x1", "x2", "x3")
        const session = yield* sessions.create(
          newSession({ duree: 60, athleteIds: [a1!, a2!], activiteIds: [act1!, act2!] })
        )

        expect(yield* sessions.update(session.id, new SessionUpdate({}))).toEqual(session)

        const withDuree = yield* sessions.update(session.id, new SessionUpdate({ duree: 45 }))
        expect(withDuree).toEqual(new Session({ ...session, duree: 45 }))
        expect((yield* sessions.update(session.id, new SessionUpdate({ duree: null }))).duree).toBeNull()

        const replaced = yield* sessions.update(
          session.id,
          new SessionUpdate({ athleteIds: [a3!, a2!], activiteIds: [act3!, act2!] })
        )
        expect(replaced.athleteIds).toEqual([a2!, a3!])
        expect(replaced.activiteIds).toEqual([act2!, act3!])
        expect(replaced.duree).toBeNull()
        expect(yield* sessions.findById(session.id)).toEqual(Option.some(replaced))
        // Dropped activities are detached, not deleted.
        expect(Option.getOrThrow(yield* activities.findById(act1!)).sessionId).toBeNull()

        const emptied = yield* sessions.update(session.id, new SessionUpdate({ athleteIds: [], activiteIds: [] }))
        expect(emptied).toMatchObject({ athleteIds: [], activiteIds: [] })
        expect(Option.getOrThrow(yield* activities.findById(act3!)).sessionId).toBeNull()
      }))

    it.effect("update with unknown ids changes nothing; update of a missing session fails", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const [a1] = yield* createAthletes("w1")
        const { ids: [act1] } = yield* createActivities("y1")
        const session = yield* sessions.create(newSession({ duree: 30, athleteIds: [a1!], activiteIds: [act1!] }))

        expect(
          yield* Effect.flip(sessions.update(
            session.id,
            new SessionUpdate({ duree: 99, athleteIds: [AthleteId.make(900_010)], activiteIds: [] })
          ))
        ).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds", ids: [900_010] })
        expect(
          yield* Effect.flip(sessions.update(
            session.id,
            new SessionUpdate({ duree: 99, athleteIds: [], activiteIds: [act1!, ActivityId.make(900_011)] })
          ))
        ).toMatchObject({ _tag: "UnknownReferences", field: "activiteIds", ids: [900_011] })
        expect(yield* sessions.findById(session.id)).toEqual(Option.some(session))

        const missing = SessionId.make(900_012)
        expect(yield* Effect.flip(sessions.update(missing, new SessionUpdate({ duree: 1 })))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Session",
          id: missing
        })
        // The session is looked for before the ids it names.
        expect(
          yield* Effect.flip(sessions.update(missing, new SessionUpdate({ athleteIds: [AthleteId.make(900_013)] })))
        )
          .toMatchObject({ _tag: "EntityNotFound" })
      }))

    it.effect("delete removes the session's activities and memberships", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const activities = yield* ActivityRepository
        const athletes = yield* AthleteRepository
        const [a1] = yield* createAthletes("d1")
        const { ids: [act1] } = yield* createActivities("z1")
        const session = yield* sessions.create(newSession({ athleteIds: [a1!], activiteIds: [act1!] }))

        yield* sessions.delete(session.id)
        expect(yield* sessions.findById(session.id)).toEqual(Option.none())
        expect(yield* activities.findById(act1!)).toEqual(Option.none())
        expect(yield* sessions.summariesOfAthlete(a1!, {})).toEqual([])
        expect(Option.isSome(yield* athletes.findById(a1!))).toBe(true)

        expect(yield* Effect.flip(sessions.delete(session.id))).toMatchObject({
          _tag: "EntityNotFound",
          entity: "Session"
        })
      }))

    it.effect("page lists in (creneau, id) order after a position, undated first, a row written between pages neither repeated nor skipping", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const [athlete] = yield* createAthletes("paged")
        const at = (creneau: string | null) =>
          sessions.create(newSession({ name: `page ${creneau}`, creneau, athleteIds: [athlete!] }))
        const late = yield* at("2026-03-02T09:00:00")
        const early = yield* at("2026-03-01T09:00:00")
        const earlyToo = yield* at("2026-03-01T09:00:00")
        const undated = yield* at(null)
        const query = new SessionQuery({ athleteId: athlete! })
        const ids = (page: ReadonlyArray<Session>) => page.map((session) => session.id)

        const first = yield* sessions.page(query, undefined, 2)
        expect(ids(first)).toEqual([undated.id, early.id])
        // Written between the pages: one before the position reached, one after it.
        yield* at("2026-02-01T09:00:00")
        const middle = yield* at("2026-03-01T12:00:00")
        const rest = yield* sessions.page(query, first.at(-1)!, 10)
        expect(ids(rest)).toEqual([earlyToo.id, middle.id, late.id])
        expect(yield* sessions.page(query, late, 10)).toEqual([])
        expect(rest[0]).toEqual(Option.getOrThrow(yield* sessions.findById(earlyToo.id)))
      }))

    it.effect("page filters by range (from inclusive, to exclusive), coach, group and athlete", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const coach = yield* (yield* CoachRepository).create(new CoachCreate({ id: null, name: "Pager" }))
        const [athlete] = yield* createAthletes("filtered")
        const at = (creneau: string | null, coachId: CoachId | null = coach.id) =>
          sessions.create(newSession({ creneau, coachId, athleteIds: [athlete!] })).pipe(Effect.map((s) => s.id))
        const nine = yield* at("2026-04-01T09:00:00")
        const ten = yield* at("2026-04-01T10:00:00")
        yield* at(null)
        const other = yield* at("2026-04-01T09:30:00", null)
        const page = (query: ConstructorParameters<typeof SessionQuery>[0]) =>
          sessions.page(new SessionQuery(query), undefined, 100).pipe(Effect.map((all) => all.map((s) => s.id)))
        const time = (s: string) => s as LocalDateTime

        expect(yield* page({ coachId: coach.id })).toHaveLength(3)
        expect(yield* page({ athleteId: athlete!, from: time("2026-04-01T09:00:00"), to: time("2026-04-01T10:00:00") }))
          .toEqual([nine, other])
        expect(yield* page({ coachId: coach.id, from: time("2026-04-01T09:00:01") })).toEqual([ten])
        expect(yield* page({ athleteId: athlete!, groupe: "A", to: time("2026-04-01T09:59:59") })).toEqual([
          nine,
          other
        ])
        expect(yield* page({ athleteId: athlete!, groupe: "no such group" })).toEqual([])
      }))

    it.effect("feedSessions lists a scope's dated sessions with revisions counting changes; feedVersion changes with them", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const [athlete, other] = yield* createAthletes("feed", "feed-other")
        const scope = { kind: "athlete", athleteId: athlete! } as const
        const empty = yield* sessions.feedVersion(scope)
        const later = yield* sessions.create(newSession({ creneau: "2026-03-29T10:00:00", athleteIds: [athlete!] }))
        const sooner = yield* sessions.create(newSession({ creneau: "2026-03-28T10:00:00", athleteIds: [athlete!] }))
        yield* sessions.create(newSession({ creneau: null, athleteIds: [athlete!] }))
        yield* sessions.create(newSession({ creneau: "2026-03-28T10:00:00", athleteIds: [other!] }))
        const feed = yield* sessions.feedSessions(scope)
        expect(feed.map(({ revision, session }) => [session.id, revision])).toEqual([[sooner.id, 0], [later.id, 0]])
        expect(feed[0]!.session).toEqual(sooner)
        const created = yield* sessions.feedVersion(scope)
        expect(created).not.toBe(empty)
        expect(yield* sessions.feedVersion(scope)).toBe(created)

        yield* sessions.update(later.id, new SessionUpdate({ duree: 5 }))
        const changed = yield* sessions.feedVersion(scope)
        expect(changed).not.toBe(created)
        expect((yield* sessions.feedSessions(scope)).map(({ revision }) => revision)).toEqual([0, 1])
        // The same value again changes nothing.
        yield* sessions.update(later.id, new SessionUpdate({ duree: 5 }))
        expect(yield* sessions.feedVersion(scope)).toBe(changed)

        yield* sessions.update(sooner.id, new SessionUpdate({ athleteIds: [other!] }))
        expect((yield* sessions.feedSessions(scope)).map(({ session }) => session.id)).toEqual([later.id])
        expect(yield* sessions.feedVersion(scope)).not.toBe(changed)
        expect((yield* sessions.feedSessions({ kind: "group", groupe: "A" })).length).toBeGreaterThanOrEqual(3)
      }))

    it.effect("summaries of an athlete honour exclusive creneau bounds", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const [athlete, other] = yield* createAthletes("s1", "s2")
        const at = (creneau: string | null, athleteIds: ReadonlyArray<AthleteId> = [athlete!]) =>
          sessions.create(newSession({ name: `at ${creneau}`, creneau, athleteIds })).pipe(Effect.map((s) => s.id))
        const ten = yield* at("2026-03-01T10:00:00")
        const noon = yield* at("2026-03-01T12:00:00")
        const two = yield* at("2026-03-01T14:00:00")
        const undated = yield* at(null)
        yield* at("2026-03-01T12:00:00", [other!])
        const time = (s: string) => s as LocalDateTime

        expect(sessionIdsOf(yield* sessions.summariesOfAthlete(athlete!, {}))).toEqual([ten, noon, two, undated])
        expect(sessionIdsOf(yield* sessions.summariesOfAthlete(athlete!, { after: time("2026-03-01T10:00:00") })))
          .toEqual([noon, two])
        expect(sessionIdsOf(yield* sessions.summariesOfAthlete(athlete!, { before: time("2026-03-01T14:00:00") })))
          .toEqual([ten, noon])
        expect(sessionIdsOf(
          yield* sessions.summariesOfAthlete(athlete!, {
            after: time("2026-03-01T10:00:00"),
            before: time("2026-03-01T14:00:00")
          })
        )).toEqual([noon])
        expect(yield* sessions.summariesOfAthlete(AthleteId.make(902_001), {})).toEqual([])
        const summary = (yield* sessions.summariesOfAthlete(athlete!, {}))[0]
        expect(summary).toEqual({ id: ten, name: "at 2026-03-01T10:00:00" })
      }))

    it.effect("summaries list every session by id; activity summaries are empty for a missing session", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const first = yield* sessions.create(newSession({ name: "first" }))
        const { holding, ids: [act1, act2] } = yield* createActivities("p1", "p2")
        const all = yield* sessions.summaries()
        expect(sessionIdsOf(all)).toEqual([...sessionIdsOf(all)].sort((a, b) => a - b))
        expect(all).toContainEqual(expect.objectContaining({ id: first.id, name: "first" }))

        expect(yield* sessions.activitySummaries(holding)).toEqual([
          expect.objectContaining({ id: act1, name: "p1" }),
          expect.objectContaining({ id: act2, name: "p2" })
        ])
        expect(yield* sessions.activitySummaries(SessionId.make(900_020))).toEqual([])
      }))
  }
}
