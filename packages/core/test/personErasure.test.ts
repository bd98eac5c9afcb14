import { describe, expect, it } from "@effect/vitest"
import {
  AthleteCreate,
  AthleteRepository,
  AttendanceRepository,
  GuardianshipRepository,
  type LocalDateTime,
  PersonDataRepository,
  type PersonExportSection,
  ReplyInput,
  SessionRepository,
  UserRepository
} from "@club/core"
import { InMemoryRepositories, InMemoryStore } from "@club/core/testing"
import { Effect, Option, Redacted, Stream } from "effect"
import { newSession, newUser } from "./repositoryContract/fixtures.ts"

/** The in-memory store's export and erasure (issue 43): what the store holds of a person, gone. */
describe("A person's erasure in memory", () => {
  it.effect("exports the person, then erases their texts, links and preferences once; again changes nothing", () =>
    Effect.gen(function*() {
      const users = yield* UserRepository
      const people = yield* PersonDataRepository
      const store = yield* InMemoryStore
      const person = yield* users.create(newUser("zephyrine", "ATHLETE"))
      const parent = yield* users.create(newUser("parent", "COACH"))
      yield* (yield* GuardianshipRepository).link(parent.id, person.athleteId!)

      const pages = (yield* Stream.runCollect(people.exportPerson(person.id, 1))) as ReadonlyArray<PersonExportSection>
      expect(JSON.stringify(pages)).toContain("zephyrine@club.test")
      expect(pages.find((page) => page.section === "guardians")?.rows).toEqual([{ userId: parent.id }])
      expect(JSON.stringify(pages)).not.toContain("hash-of")

      const erased = yield* people.erase(person.id, 10)
      expect(erased).toMatchObject({ userId: person.id, athleteId: person.athleteId, coachId: null })
      const stored = store.users.get(person.id)!
      expect(stored.user.email).toBeNull()
      expect(stored.user.name).not.toContain("zephyrine")
      expect(Redacted.value(stored.passwordHash)).toBe("erased")
      expect(store.athletes.get(person.athleteId!)?.name).toBeNull()
      expect(Option.getOrThrow(yield* (yield* GuardianshipRepository).guardiansOf(person.athleteId!))).toEqual([])
      // The audit trail keeps which rows were written, and loses what they held (decision 0303).
      const about = store.auditEntries.filter((entry) =>
        (entry.recordType === "users" && entry.records["id"] === person.id) ||
        (entry.recordType === "athletes" && entry.records["id"] === person.athleteId)
      )
      expect(about.map((entry) => entry.operation)).toEqual(["insert", "insert", "update", "update"])
      expect(JSON.stringify(store.auditEntries)).not.toContain("zephyrine")
      expect(about.every((entry) => Object.values(entry.changes).every((value) => value === "(erased)"))).toBe(true)

      expect(yield* people.erase(person.id, 10)).toEqual(erased)
      expect(store.users.get(person.id)!.user.name).toBe(stored.user.name)
      expect(yield* people.erasures()).toEqual([erased])
      const missing = yield* Effect.flip(people.erase(987_654 as never, 10))
      expect(missing._tag).toBe("EntityNotFound")
    }).pipe(Effect.provide(InMemoryRepositories)))

  // Found by the model-based suite in process: the erasure left the reason, which names the person.
  it.effect("blanks the person's replies' reasons and keeps their answers, so the session's counts stay", () =>
    Effect.gen(function*() {
      const person = yield* (yield* UserRepository).create(newUser("quentin", "ATHLETE"))
      const athleteId = person.athleteId!
      const session = yield* (yield* SessionRepository).create(newSession({ athleteIds: [athleteId] }))
      const attendance = yield* AttendanceRepository
      yield* attendance.reply({
        sessionId: session.id,
        athleteId,
        input: new ReplyInput({ answer: "yes", reason: "quentin brings his sister" }),
        scope: "one",
        now: "2026-01-01T12:00:00" as LocalDateTime,
        by: person.id
      })
      yield* (yield* PersonDataRepository).erase(person.id, 10)
      const replies = Option.getOrThrow(yield* attendance.replies(session.id))
      expect(replies.confirmed).toBe(1)
      expect(replies.replies.map((reply) => [reply.athleteId, reply.answer, reply.state, reply.reason])).toEqual([
        [athleteId, "yes", "confirmed", null]
      ])
    }).pipe(Effect.provide(InMemoryRepositories)))

  it.effect("exports and erases an athlete without a user as a person of its own; one linked to a user as that user", () =>
    Effect.gen(function*() {
      const people = yield* PersonDataRepository
      const store = yield* InMemoryStore
      const guardianships = yield* GuardianshipRepository
      const child = yield* (yield* AthleteRepository).create(
        new AthleteCreate({ id: null, name: "Zéphyrine child", categorie: "U11", niveau: null })
      )
      const parent = yield* (yield* UserRepository).create(newUser("parent", "ATHLETE"))
      yield* guardianships.link(parent.id, child.id)

      const pages = (yield* Stream.runCollect(people.exportAthlete(child.id, 10))) as ReadonlyArray<PersonExportSection>
      expect(pages.map((page) => page.section)).toEqual(["athlete", "guardians"])
      expect(JSON.stringify(pages)).toContain("Zéphyrine child")
      // No user: none of a user's sections has a row, and the parent's user is not exported.
      expect(JSON.stringify(pages)).not.toContain("parent@club.test")

      const erased = yield* people.eraseAthlete(child.id, 10)
      expect(erased).toMatchObject({ userId: null, athleteId: child.id, coachId: null, adminId: null })
      expect(store.athletes.get(child.id)?.name).toBeNull()
      expect(Option.getOrThrow(yield* guardianships.guardiansOf(child.id))).toEqual([])
      expect(store.users.get(parent.id)!.user.name).toBe("parent")
      expect(yield* people.eraseAthlete(child.id, 10)).toEqual(erased)
      expect(yield* people.erasures()).toEqual([erased])

      // An athlete a user links is that user's person: the same erasure, the same ledger row.
      const athleteUser = yield* (yield* UserRepository).create(newUser("lea", "ATHLETE"))
      const byAthlete = yield* people.eraseAthlete(athleteUser.athleteId!, 10)
      expect(byAthlete).toMatchObject({ userId: athleteUser.id, athleteId: athleteUser.athleteId })
      expect(yield* people.erase(athleteUser.id, 10)).toEqual(byAthlete)
      expect(yield* people.erasures()).toHaveLength(2)
      expect((yield* Effect.flip(people.eraseAthlete(987_654 as never, 10)))._tag).toBe("EntityNotFound")
      expect((yield* Effect.flip(Stream.runCollect(people.exportAthlete(987_654 as never, 10))))._tag).toBe(
        "EntityNotFound"
      )
    }).pipe(Effect.provide(InMemoryRepositories)))
})
