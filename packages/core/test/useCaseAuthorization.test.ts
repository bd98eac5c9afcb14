import { describe, expect, it } from "@effect/vitest"
import { Cause, type Context, Effect, Exit, Layer, Stream } from "effect"
import {
  ActivityRepository,
  ActivityService,
  type Actor,
  AdminRepository,
  AdminService,
  AthleteRepository,
  AthleteService,
  AuthService,
  CoachRepository,
  CoachService,
  CurrentActor,
  LoginAttempts,
  type Operation,
  PasswordHasher,
  type Role,
  rolesAllowed,
  ScheduleService,
  SessionRepository,
  SessionService,
  TaskRepository,
  TaskService,
  TokenSigner,
  UseCasesLive,
  UserRepository,
  UserService
} from "../src/index.ts"

/** Marks that a use-case got past its authorization and reached a port. */
class ReachedPort {
  readonly _tag = "ReachedPort"
}

/**
 * A port whose every method reports that it was reached: enough to see where authorization stops a
 * call. `stream` methods answer a stream that does, the others an effect.
 */
const reachedOnly = <I, S>(tag: Context.Key<I, S>) =>
  Layer.succeed(
    tag,
    new Proxy({}, {
      get: (_, method) => () => method === "stream" ? Stream.die(new ReachedPort()) : Effect.die(new ReachedPort())
    }) as S
  )

const PortsReached = Layer.mergeAll(
  reachedOnly(ActivityRepository),
  reachedOnly(AdminRepository),
  reachedOnly(AthleteRepository),
  reachedOnly(CoachRepository),
  reachedOnly(SessionRepository),
  reachedOnly(TaskRepository),
  reachedOnly(UserRepository),
  reachedOnly(LoginAttempts),
  reachedOnly(PasswordHasher),
  reachedOnly(TokenSigner)
)

const UseCases = UseCasesLive.pipe(Layer.provide(PortsReached))

const anyInput = {} as never
const taskId = "0b0f1f6e-8a55-4a53-9a4e-1f1f1f1f1f1f"

/** Every use-case method that a request can reach, with the operation it must check. */
// oxlint-disable-next-line no-explicit-any -- each call needs its own use-case service; the test provides them all
const calls: ReadonlyArray<readonly [string, Operation, Effect.Effect<unknown, unknown, any>]> = [
  [
    "ActivityService.create",
    "activity.create",
    Effect.flatMap(Effect.service(ActivityService), (s) => s.create(anyInput))
  ],
  ["ActivityService.get", "activity.read", Effect.flatMap(Effect.service(ActivityService), (s) => s.get(1 as never))],
  ["ActivityService.list", "activity.read", Effect.flatMap(Effect.service(ActivityService), (s) => s.list())],
  [
    "ActivityService.listByTheme",
    "activity.read",
    Effect.flatMap(Effect.service(ActivityService), (s) => s.listByTheme("x"))
  ],
  [
    "ActivityService.update",
    "activity.update",
    Effect.flatMap(Effect.service(ActivityService), (s) => s.update(1 as never, anyInput))
  ],
  [
    "ActivityService.delete",
    "activity.delete",
    Effect.flatMap(Effect.service(ActivityService), (s) => s.delete(1 as never))
  ],
  [
    "AthleteService.create",
    "athlete.create",
    Effect.flatMap(Effect.service(AthleteService), (s) => s.create(anyInput))
  ],
  ["AthleteService.list", "athlete.list", Effect.flatMap(Effect.service(AthleteService), (s) => s.list())],
  ["AthleteService.get", "athlete.read", Effect.flatMap(Effect.service(AthleteService), (s) => s.get(1 as never))],
  [
    "AthleteService.update",
    "athlete.update",
    Effect.flatMap(Effect.service(AthleteService), (s) => s.update(99 as never, anyInput))
  ],
  [
    "AthleteService.delete",
    "athlete.delete",
    Effect.flatMap(Effect.service(AthleteService), (s) => s.delete(1 as never))
  ],
  [
    "ScheduleService.sessionsOfAthlete",
    "schedule.read",
    Effect.flatMap(Effect.service(ScheduleService), (s) => s.sessionsOfAthlete(1 as never))
  ],
  [
    "ScheduleService.allSessions",
    "schedule.read",
    Effect.flatMap(Effect.service(ScheduleService), (s) => s.allSessions())
  ],
  [
    "ScheduleService.activitiesOfSession",
    "schedule.read",
    Effect.flatMap(Effect.service(ScheduleService), (s) => s.activitiesOfSession(1 as never))
  ],
  [
    "ScheduleService.sessionsOfAthleteAfter",
    "schedule.read",
    Effect.flatMap(Effect.service(ScheduleService), (s) => s.sessionsOfAthleteAfter(1 as never, "2026-01-01" as never))
  ],
  [
    "ScheduleService.sessionsOfAthleteBetween",
    "schedule.read",
    Effect.flatMap(
      Effect.service(ScheduleService),
      (s) => s.sessionsOfAthleteBetween(1 as never, "2026-01-01" as never, "2026-02-01" as never)
    )
  ],
  [
    "SessionService.create",
    "session.create",
    Effect.flatMap(Effect.service(SessionService), (s) => s.create(anyInput))
  ],
  ["SessionService.list", "session.read", Effect.flatMap(Effect.service(SessionService), (s) => s.list())],
  [
    "SessionService.stream",
    "session.read",
    Effect.flatMap(Effect.service(SessionService), (s) => Effect.flatMap(s.stream(), Stream.runDrain))
  ],
  ["SessionService.get", "session.read", Effect.flatMap(Effect.service(SessionService), (s) => s.get(1 as never))],
  [
    "SessionService.update",
    "session.update",
    Effect.flatMap(Effect.service(SessionService), (s) => s.update(1 as never, anyInput))
  ],
  [
    "SessionService.delete",
    "session.delete",
    Effect.flatMap(Effect.service(SessionService), (s) => s.delete(1 as never))
  ],
  ["CoachService.create", "coach.create", Effect.flatMap(Effect.service(CoachService), (s) => s.create(anyInput))],
  ["CoachService.list", "coach.read", Effect.flatMap(Effect.service(CoachService), (s) => s.list())],
  ["CoachService.get", "coach.read", Effect.flatMap(Effect.service(CoachService), (s) => s.get(1 as never))],
  [
    "CoachService.update",
    "coach.update",
    Effect.flatMap(Effect.service(CoachService), (s) => s.update(1 as never, anyInput))
  ],
  ["CoachService.delete", "coach.delete", Effect.flatMap(Effect.service(CoachService), (s) => s.delete(1 as never))],
  ["AdminService.create", "admin.create", Effect.flatMap(Effect.service(AdminService), (s) => s.create(anyInput))],
  ["AdminService.list", "admin.read", Effect.flatMap(Effect.service(AdminService), (s) => s.list())],
  ["AdminService.get", "admin.read", Effect.flatMap(Effect.service(AdminService), (s) => s.get(1 as never))],
  [
    "AdminService.update",
    "admin.update",
    Effect.flatMap(Effect.service(AdminService), (s) => s.update(1 as never, anyInput))
  ],
  ["AdminService.delete", "admin.delete", Effect.flatMap(Effect.service(AdminService), (s) => s.delete(1 as never))],
  [
    "UserService.create",
    "user.create",
    Effect.flatMap(
      Effect.service(UserService),
      (s) => s.create({ role: "COACH", coachId: null, athleteId: null, adminId: null } as never)
    )
  ],
  ["UserService.list", "user.list", Effect.flatMap(Effect.service(UserService), (s) => s.list())],
  ["UserService.get", "user.read", Effect.flatMap(Effect.service(UserService), (s) => s.get(99 as never))],
  [
    "UserService.update",
    "user.update",
    Effect.flatMap(Effect.service(UserService), (s) => s.update(1 as never, anyInput))
  ],
  ["UserService.delete", "user.delete", Effect.flatMap(Effect.service(UserService), (s) => s.delete(1 as never))],
  ["AuthService.me", "auth.me", Effect.flatMap(Effect.service(AuthService), (s) => s.me())],
  ["TaskService.create", "task.create", Effect.flatMap(Effect.service(TaskService), (s) => s.create(anyInput))],
  ["TaskService.list", "task.list", Effect.flatMap(Effect.service(TaskService), (s) => s.list())],
  ["TaskService.delete", "task.delete", Effect.flatMap(Effect.service(TaskService), (s) => s.delete(taskId))]
]

const actorOf = (role: Role): Actor => ({
  userId: 1 as Actor["userId"],
  role,
  athleteId: role === "ATHLETE" ? (1 as Actor["athleteId"]) : null,
  coachId: role === "COACH" ? (1 as Actor["coachId"]) : null,
  adminId: role === "ADMIN" ? (1 as Actor["adminId"]) : null
})

const outcome = (exit: Exit.Exit<unknown, unknown>): "forbidden" | "reached" | "other" => {
  if (Exit.isSuccess(exit)) return "other"
  const reasons = exit.cause.reasons
  if (reasons.some((r) => Cause.isFailReason(r) && (r.error as { _tag?: string })._tag === "NotPermitted")) {
    return "forbidden"
  }
  return reasons.some((r) => Cause.isDieReason(r) && r.defect instanceof ReachedPort) ? "reached" : "other"
}

describe("every use-case checks the role table itself, before it touches a port", () => {
  it("lists every operation of the table at least once", () => {
    const covered = new Set(calls.map(([, operation]) => operation))
    expect(covered.size).toBe(31)
  })

  for (const [name, operation, call] of calls) {
    for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
      const allowed = rolesAllowed(operation).includes(role)
      it.effect(`${name} as ${role}: ${allowed ? "reaches the port" : "NotPermitted"}`, () =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(call.pipe(Effect.provideService(CurrentActor, actorOf(role))))
          expect(outcome(exit)).toBe(allowed ? "reached" : "forbidden")
        }).pipe(Effect.provide(UseCases)))
    }
  }
})
