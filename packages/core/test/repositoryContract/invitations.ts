import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  CoachCreate,
  CoachRepository,
  type CalendarDate,
  type CoachId,
  GroupCreate,
  type GroupId,
  GroupRepository,
  GuardianshipRepository,
  InvalidValue,
  InvitationRepository,
  type LocalDateTime,
  MembershipStart,
  type MembershipId,
  PresenceMark,
  ReplyInput,
  type ReplyAnswer,
  type ReplyScope,
  SeriesCreate,
  SeriesRepository,
  type SessionId,
  SessionCreate,
  SessionRepository,
  SessionUpdate,
  type UserId,
  UserRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newSession, newUser } from "./fixtures.ts"

/** Before every session these tests create. */
const now = "2027-01-01T12:00:00" as LocalDateTime
const by = 1 as UserId

const athletes = (count: number) =>
  Effect.gen(function*() {
    const repository = yield* AthleteRepository
    const ids: Array<AthleteId> = []
    for (let i = 0; i < count; i++) {
      ids.push(
        (yield* repository.create(new AthleteCreate({ id: null, name: `m${i}`, categorie: null, niveau: null }))).id
      )
    }
    return ids
  })

const sessionOf = (groupe: string | null, creneau: string | null, athleteIds: ReadonlyArray<AthleteId> = []) =>
  Effect.map(
    Effect.flatMap(
      Effect.service(SessionRepository),
      (r) => r.create(new SessionCreate({ ...newSession({ athleteIds, creneau }), groupe }))
    ),
    (s) => s.id
  )

/** A weekly series of the group, four Tuesdays of March 2027; answers its occurrences' sessions. */
const weeklyOf = (groupe: string, athleteIds: ReadonlyArray<AthleteId> = []) =>
  Effect.gen(function*() {
    const series = yield* (yield* SeriesRepository).create(
      new SeriesCreate({
        name: `${groupe} weekly`,
        groupe,
        coachId: null,
        duree: 60,
        start: "2027-03-02T18:00:00" as LocalDateTime,
        rrule: "FREQ=WEEKLY;COUNT=4",
        athleteIds
      }),
      ["02", "09", "16", "23"].map((day) => `2027-03-${day}T18:00:00` as LocalDateTime),
      "2027-04-01T00:00:00" as LocalDateTime
    )
    return series.occurrences.map((o) => o.sessionId)
  })

const reply = (
  sessionId: SessionId,
  athleteId: AthleteId,
  answer: ReplyAnswer,
  options: { readonly scope?: ReplyScope; readonly at?: LocalDateTime } = {}
) =>
  Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
    r.reply({
      sessionId,
      athleteId,
      input: new ReplyInput({ answer, reason: null }),
      scope: options.scope ?? "one",
      now: options.at ?? now,
      by
    }))

const states = (sessionId: SessionId) =>
  Effect.gen(function*() {
    const replies = Option.getOrThrow(yield* (yield* AttendanceRepository).replies(sessionId))
    return replies.replies.map((r) => [r.athleteId, r.state] as const)
  })

/** The effect fails with `InvalidValue` naming `field` (an athlete the session does not invite). */
const refusedAsStranger = <A, E, R>(effect: Effect.Effect<A, E, R>, field: string) =>
  Effect.map(Effect.exit(effect), (exit) => {
    const error = Option.getOrUndefined(Exit.findErrorOption(exit))
    expect(error).toBeInstanceOf(InvalidValue)
    expect((error as InvalidValue).field).toBe(field)
  })

const day = (date: string) => date as CalendarDate

/**
 * Groups, memberships and guardianships made through their own ports (`GroupRepository`,
 * `GuardianshipRepository`), as the endpoints make them; a refusal is a defect (the tests set up
 * valid records).
 */
const fixture = Effect.gen(function*() {
  const repository = yield* GroupRepository
  const guardianships = yield* GuardianshipRepository
  const create = (name: string, parentId: number | null, coachIds: ReadonlyArray<number>) =>
    Effect.map(
      Effect.orDie(
        repository.create(
          new GroupCreate({
            name,
            parentId: parentId as GroupId | null,
            coachIds: coachIds as ReadonlyArray<CoachId>
          })
        )
      ),
      (group) => group.id as number
    )
  const end = (membershipId: number, until: string) =>
    Effect.asVoid(Effect.orDie(repository.end(membershipId as MembershipId, day(until))))
  return {
    /** The club's root group: the first group (the lowest id), created by the first call when there is none. */
    root: () =>
      Effect.flatMap(
        repository.list({ after: 0, limit: 1 }),
        ([first]) =>
          first !== undefined && first.parentId === null ? Effect.succeed(first.id as number) : create("Club", null, [])
      ),
    group: create,
    /** A membership of the days `from` to `until` (null: open): started, then ended when `until` is given. */
    member: (groupId: number, athleteId: number, from: string, until: string | null) =>
      Effect.gen(function*() {
        const membership = yield* Effect.orDie(
          repository.start(
            groupId as GroupId,
            new MembershipStart({ athleteId: athleteId as AthleteId, from: day(from) })
          )
        )
        if (until !== null) yield* end(membership.id, until)
        return membership.id as number
      }),
    end,
    guard: (userId: number, athleteId: number) =>
      Effect.asVoid(Effect.orDie(guardianships.link(userId as UserId, athleteId as AthleteId)))
  }
})

export const invitationsContract: ContractSuite = {
  title: "Invitations by membership (issue 41)",
  tests: (it) => {
    it.effect("a member who joins later is invited to the occurrences on and after the join day only", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Juniors late", yield* groups.root(), [])
        const [late] = yield* athletes(1)
        const [first, second, third, fourth] = yield* weeklyOf("Juniors late")
        yield* groups.member(group, late!, "2027-03-09", null)
        yield* refusedAsStranger(reply(first!, late!, "yes"), "athleteId")
        const written = yield* reply(second!, late!, "yes", { scope: "following" })
        expect(written.map((r) => [r.sessionId, r.state])).toEqual([
          [second, "confirmed"],
          [third, "confirmed"],
          [fourth, "confirmed"]
        ])
        expect(yield* states(first!)).toEqual([])
        // A scope=following from a session the athlete is not invited to is refused whole.
        yield* refusedAsStranger(reply(first!, late!, "no", { scope: "following" }), "athleteId")
        expect(yield* states(second!)).toEqual([[late, "confirmed"]])
      }))

    it.effect("a member who leaves is not invited after its last day; a reply made before stays", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Juniors leave", yield* groups.root(), [])
        const [leaver] = yield* athletes(1)
        const [first, second, third, fourth] = yield* weeklyOf("Juniors leave")
        const membership = yield* groups.member(group, leaver!, "2027-02-01", null)
        yield* reply(first!, leaver!, "yes", { scope: "following" })
        yield* groups.end(membership, "2027-03-09")
        // Replies already made are kept, those after the last day included.
        for (const sessionId of [first!, second!, third!, fourth!]) {
          expect(yield* states(sessionId)).toEqual([[leaver, "confirmed"]])
        }
        // A new reply after the last day is refused; one on the last day is accepted.
        yield* refusedAsStranger(reply(third!, leaver!, "no"), "athleteId")
        const onLastDay = yield* reply(second!, leaver!, "no", { scope: "following" })
        expect(onLastDay.map((r) => [r.sessionId, r.state])).toEqual([[second, "declined"]])
        expect(yield* states(third!)).toEqual([[leaver, "confirmed"]])
      }))

    it.effect("members and the session's own athletes share the capacity and the waiting list", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Capacity group", yield* groups.root(), [])
        const [own, member1, member2, stranger] = yield* athletes(4)
        yield* groups.member(group, member1!, "2027-01-01", null)
        yield* groups.member(group, member2!, "2027-01-01", "2027-12-31")
        const sessionId = yield* sessionOf("Capacity group", "2027-05-04T18:00:00", [own!])
        yield* (yield* AttendanceRepository).configure(sessionId, new AttendanceSettings({ capacity: 2 }))
        yield* reply(sessionId, member1!, "yes")
        yield* reply(sessionId, own!, "yes")
        yield* reply(sessionId, member2!, "yes")
        yield* refusedAsStranger(reply(sessionId, stranger!, "yes"), "athleteId")
        expect(yield* states(sessionId)).toEqual([[member1, "confirmed"], [own, "confirmed"], [member2, "waiting"]])
        yield* reply(sessionId, member1!, "no")
        expect(yield* states(sessionId)).toEqual([[own, "confirmed"], [member2, "confirmed"], [member1, "declined"]])
      }))

    it.effect("an athlete taken out of the session keeps its reply while its group invites it, else loses it and frees the place", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Taken out", yield* groups.root(), [])
        const [both, onlyOwn, waiting] = yield* athletes(3)
        yield* groups.member(group, both!, "2027-01-01", null)
        const sessionId = yield* sessionOf("Taken out", "2027-05-04T18:00:00", [both!, onlyOwn!, waiting!])
        yield* (yield* AttendanceRepository).configure(sessionId, new AttendanceSettings({ capacity: 2 }))
        yield* reply(sessionId, both!, "yes")
        yield* reply(sessionId, onlyOwn!, "yes")
        yield* reply(sessionId, waiting!, "yes")
        yield* (yield* SessionRepository).update(sessionId, new SessionUpdate({ athleteIds: [waiting!] }))
        expect(yield* states(sessionId)).toEqual([[both, "confirmed"], [waiting, "confirmed"]])
      }))

    it.effect("marks accept the members of the session's group on its day, and refuse others", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Marked", yield* groups.root(), [])
        const [own, member, former] = yield* athletes(3)
        yield* groups.member(group, member!, "2027-01-01", null)
        yield* groups.member(group, former!, "2026-01-01", "2026-12-31")
        const sessionId = yield* sessionOf("Marked", "2027-05-04T18:00:00", [own!])
        const presence = yield* (yield* AttendanceRepository).mark(
          sessionId,
          [
            new PresenceMark({ athleteId: own!, status: "present" }),
            new PresenceMark({ athleteId: member!, status: "late" })
          ],
          by,
          Date.UTC(2027, 4, 4, 19)
        )
        expect(presence.marks.map((m) => [m.athleteId, m.status])).toEqual([[own, "present"], [member, "late"]])
        yield* refusedAsStranger(
          (yield* AttendanceRepository).mark(
            sessionId,
            [new PresenceMark({ athleteId: former!, status: "present" })],
            by,
            Date.UTC(2027, 4, 4, 19)
          ),
          "marks"
        )
      }))

    it.effect("a session without a creneau invites today's members", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("No creneau", yield* groups.root(), [])
        const [current, future] = yield* athletes(2)
        yield* groups.member(group, current!, "2026-12-01", null)
        yield* groups.member(group, future!, "2027-02-01", null)
        const sessionId = yield* sessionOf("No creneau", null)
        yield* reply(sessionId, current!, "yes")
        yield* refusedAsStranger(reply(sessionId, future!, "yes"), "athleteId")
      }))

    it.effect("the coaches of a session's group and of every group above it", () =>
      Effect.gen(function*() {
        const coaches = yield* CoachRepository
        const [c1, c2, c3, c4] = yield* Effect.forEach(
          [1, 2, 3, 4],
          (i) => Effect.map(coaches.create(new CoachCreate({ id: null, name: `gc${i}` })), (c) => c.id)
        )
        const groups = yield* fixture
        const club = yield* groups.group("Club tree", yield* groups.root(), [c1!])
        const section = yield* groups.group("Section tree", club, [c2!, c1!])
        yield* groups.group("U12 tree", section, [c3!])
        yield* groups.group("Other tree", club, [c4!])
        const repository = yield* InvitationRepository
        const sorted = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)
        expect(sorted(yield* repository.groupCoachIds("U12 tree"))).toEqual(sorted([c1!, c2!, c3!]))
        expect(sorted(yield* repository.groupCoachIds("Section tree"))).toEqual(sorted([c1!, c2!]))
        expect(yield* repository.groupCoachIds("no such group")).toEqual([])
        expect(yield* repository.groupCoachIds(null)).toEqual([])
      }))

    it.effect("who is invited: the session's athletes and its group's members on its day, in athlete order, by page", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Invited list", yield* groups.root(), [])
        const [a, b, c, d, e] = yield* athletes(5)
        yield* groups.member(group, b!, "2027-01-01", null)
        yield* groups.member(group, c!, "2027-01-01", null)
        yield* groups.member(group, d!, "2027-06-01", null)
        yield* groups.member(group, e!, "2026-01-01", "2027-01-31")
        const sessionId = yield* sessionOf("Invited list", "2027-05-04T18:00:00", [a!, c!])
        const repository = yield* InvitationRepository
        const today = day("2027-01-01")
        const all = Option.getOrThrow(yield* repository.invited(sessionId, today, null, 10))
        expect(all.map((i) => [i.athleteId, i.how, i.groupName])).toEqual([
          [a, "athlete", null],
          [b, "member", "Invited list"],
          [c, "athlete", "Invited list"]
        ])
        expect(all[1]!.groupId).toBe(group)
        const firstPage = Option.getOrThrow(yield* repository.invited(sessionId, today, null, 2))
        expect(firstPage.map((i) => i.athleteId)).toEqual([a, b])
        const nextPage = Option.getOrThrow(yield* repository.invited(sessionId, today, b!, 2))
        expect(nextPage.map((i) => i.athleteId)).toEqual([c])
        expect(yield* repository.invited(999_999 as SessionId, today, null, 10)).toEqual(Option.none())
      }))

    it.effect("a member's sessions: its own and its groups' on the days of its memberships, in creneau order, by page", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Member sessions", yield* groups.root(), [])
        const [athlete] = yield* athletes(1)
        yield* groups.member(group, athlete!, "2027-07-06", "2027-07-13")
        const before = yield* sessionOf("Member sessions", "2027-07-05T18:00:00")
        const onJoin = yield* sessionOf("Member sessions", "2027-07-06T08:00:00")
        const own = yield* sessionOf("Elsewhere", "2027-07-08T10:00:00", [athlete!])
        const lastDay = yield* sessionOf("Member sessions", "2027-07-13T23:00:00")
        yield* sessionOf("Member sessions", "2027-07-14T00:00:00")
        const repository = yield* InvitationRepository
        const from = "2027-07-01T00:00:00" as LocalDateTime
        const until = "2027-08-01T00:00:00" as LocalDateTime
        const found = yield* repository.sessionsOf(athlete!, from, until, undefined, 10)
        expect(found.map((s) => [s.sessionId, s.how])).toEqual([
          [onJoin, "member"],
          [own, "athlete"],
          [lastDay, "member"]
        ])
        expect(found.map((s) => s.sessionId)).not.toContain(before)
        const page = yield* repository.sessionsOf(athlete!, from, until, undefined, 1)
        expect(page.map((s) => s.sessionId)).toEqual([onJoin])
        const next = yield* repository.sessionsOf(athlete!, from, until, { creneau: page[0]!.creneau, id: onJoin }, 5)
        expect(next.map((s) => s.sessionId)).toEqual([own, lastDay])
      }))

    it.effect("feeds follow membership: an athlete's holds its groups' sessions on its days; a guardian's, its athletes'", () =>
      Effect.gen(function*() {
        const groups = yield* fixture
        const group = yield* groups.group("Feed group", yield* groups.root(), [])
        const [child1, child2, other] = yield* athletes(3)
        yield* groups.member(group, child1!, "2027-09-01", "2027-09-30")
        const before = yield* sessionOf("Feed group", "2027-08-31T18:00:00")
        const inSeptember = yield* sessionOf("Feed group", "2027-09-14T18:00:00")
        const ownOfChild2 = yield* sessionOf(null, "2027-09-15T18:00:00", [child2!])
        yield* sessionOf(null, "2027-09-16T18:00:00", [other!])
        // Without a creneau a session is in no feed.
        yield* sessionOf("Feed group", null)
        const sessions = yield* SessionRepository
        const idsOf = (scope: Parameters<typeof sessions.feedSessions>[0]) =>
          Effect.map(sessions.feedSessions(scope), (feed) => feed.map((f) => f.session.id))
        expect(yield* idsOf({ kind: "athlete", athleteId: child1! })).toEqual([inSeptember])
        expect(yield* idsOf({ kind: "athlete", athleteId: child1! })).not.toContain(before)
        const parent = yield* (yield* UserRepository).create(newUser("feed-parent", "ATHLETE"))
        yield* groups.guard(parent.id, child1!)
        yield* groups.guard(parent.id, child2!)
        expect(yield* idsOf({ kind: "guardian", userId: parent.id })).toEqual([inSeptember, ownOfChild2])
        // The version moves when a membership brings a session into the feed.
        const version = yield* sessions.feedVersion({ kind: "guardian", userId: parent.id })
        yield* groups.member(group, child2!, "2027-08-01", null)
        expect(yield* idsOf({ kind: "guardian", userId: parent.id })).toEqual([before, inSeptember, ownOfChild2])
        expect(yield* sessions.feedVersion({ kind: "guardian", userId: parent.id })).not.toBe(version)
      }))
  }
}
