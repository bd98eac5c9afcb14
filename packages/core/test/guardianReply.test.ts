import { describe, expect, it } from "@effect/vitest"
import {
  type Actor,
  AthleteCreate,
  AthleteRepository,
  AttendanceRepository,
  AttendanceService,
  CurrentActor,
  GuardianshipRepository,
  ReplyInput,
  SessionRepository,
  type UserId,
  UserRepository
} from "@club/core"
import { InMemoryRepositories } from "@club/core/testing"
import { Effect, Layer } from "effect"
import { newSession, newUser } from "./repositoryContract/fixtures.ts"

/** The user each reply the use-case wrote was written by, in order. */
const writtenBy: Array<UserId> = []

/** The in-memory replies, each write's author kept: the port's `by`, stored as `replied_by`. */
const RecordingReplies = Layer.effect(
  AttendanceRepository,
  Effect.gen(function*() {
    const inner = yield* AttendanceRepository
    return AttendanceRepository.of({
      ...inner,
      reply: (write) => Effect.flatMap(Effect.sync(() => writtenBy.push(write.by)), () => inner.reply(write))
    })
  })
)

const TestLayer = AttendanceService.layer.pipe(
  Layer.provide(RecordingReplies),
  Layer.provideMerge(InMemoryRepositories)
)

const as = (userId: UserId) =>
  Effect.provideService(
    CurrentActor,
    {
      userId,
      role: "ATHLETE",
      athleteId: null,
      coachId: null,
      adminId: null
    } satisfies Actor
  )

describe("AttendanceService.reply by a guardian (issue 41)", () => {
  it.effect("a guardian replies for the athletes it guards, as itself (`by`); for another athlete: NotPermitted", () =>
    Effect.gen(function*() {
      const athletes = yield* AthleteRepository
      const child = yield* athletes.create(
        new AthleteCreate({ id: null, name: "child", categorie: null, niveau: null })
      )
      const other = yield* athletes.create(
        new AthleteCreate({ id: null, name: "other", categorie: null, niveau: null })
      )
      const parent = yield* (yield* UserRepository).create(newUser("parent", "ATHLETE"))
      const session = yield* (yield* SessionRepository).create(
        newSession({ creneau: "2099-06-01T18:00:00", athleteIds: [child.id, other.id] })
      )
      yield* (yield* GuardianshipRepository).link(parent.id, child.id)
      const attendance = yield* AttendanceService
      const yes = new ReplyInput({ answer: "yes", reason: null })

      const written = yield* attendance.reply(child.id, session.id, yes, "one").pipe(as(parent.id))
      expect(written.map((reply) => [reply.athleteId, reply.state])).toEqual([[child.id, "confirmed"]])
      expect(writtenBy).toEqual([parent.id])

      const refused = yield* Effect.flip(attendance.reply(other.id, session.id, yes, "one").pipe(as(parent.id)))
      expect(refused._tag).toBe("NotPermitted")
      expect(writtenBy).toEqual([parent.id])

      yield* (yield* GuardianshipRepository).unlink(parent.id, child.id)
      const unlinked = yield* Effect.flip(attendance.reply(child.id, session.id, yes, "one").pipe(as(parent.id)))
      expect(unlinked._tag).toBe("NotPermitted")
    }).pipe(Effect.provide(TestLayer)))
})
