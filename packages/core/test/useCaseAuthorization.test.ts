import { describe, expect, it } from "@effect/vitest"
import { Cause, type Context, Effect, Exit, Layer, Option, Stream } from "effect"
import {
  ActivityRepository,
  ActivityService,
  type Actor,
  AthleteRepository,
  AttendanceRepository,
  AttendanceService,
  AuthService,
  CoachRepository,
  CurrentActor,
  eachRecordKind,
  LoginAttempts,
  type Operation,
  Operations,
  PlanningService,
  FeedTokenRepository,
  GuardianService,
  GuardianshipRepository,
  GroupRepository,
  GroupService,
  MembershipService,
  NoticePreferenceRepository,
  NoticePreferenceService,
  PasswordHasher,
  UnsubscribeSeal,
  type RecordOperations,
  type Role,
  rolesAllowed,
  ScheduleService,
  SeriesRepository,
  SessionRepository,
  SessionService,
  TaskRepository,
  TaskService,
  TokenSigner,
  CursorSeal,
  UseCasesLive,
  HostResolver,
  InvitationRepository,
  UserRepository,
  UserService,
  WebhookRepository,
  WebhookService,
  PersonDataRepository,
  PersonDataService,
  AuditRepository,
  AuditService
} from "../src/index.ts"
import { CalendarFeedService, PlannedSessionService, SeriesService } from "../src/calendar.ts"

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

/** How many times the guardians' port answered an athlete's guardians. */
let guardianReads = 0

/**
 * The guardians' port, which answers that an athlete has none (and counts it): a rule that admits
 * guardians (`attendance.reply`) reads them, in one statement, before it can refuse a caller the
 * roles alone refuse (decision 0259). Every other method reports that it was reached.
 */
const GuardiansNone = Layer.succeed(
  GuardianshipRepository,
  new Proxy({}, {
    get: (_, method) =>
      method === "guardiansOf"
        ? () =>
          Effect.sync(() => {
            guardianReads++
            return Option.some([])
          })
        : () => Effect.die(new ReachedPort())
  }) as GuardianshipRepository["Service"]
)

const PortsReached = Layer.mergeAll(
  GuardiansNone,
  reachedOnly(ActivityRepository),
  reachedOnly(AthleteRepository),
  reachedOnly(AttendanceRepository),
  reachedOnly(InvitationRepository),
  reachedOnly(WebhookRepository),
  reachedOnly(AuditRepository),
  reachedOnly(HostResolver),
  reachedOnly(CoachRepository),
  reachedOnly(SessionRepository),
  reachedOnly(SeriesRepository),
  reachedOnly(FeedTokenRepository),
  reachedOnly(GroupRepository),
  reachedOnly(TaskRepository),
  reachedOnly(UserRepository),
  reachedOnly(LoginAttempts),
  reachedOnly(PasswordHasher),
  reachedOnly(TokenSigner),
  reachedOnly(CursorSeal),
  reachedOnly(NoticePreferenceRepository),
  reachedOnly(UnsubscribeSeal),
  reachedOnly(PersonDataRepository),
  ...eachRecordKind((kind) => reachedOnly(kind.repository))
)

const UseCases = Layer.mergeAll(
  UseCasesLive,
  CalendarFeedService.layer,
  PlannedSessionService.layer,
  SeriesService.layer
).pipe(
  Layer.provide(PortsReached)
)

const anyInput = {} as never
const taskId = "0b0f1f6e-8a55-4a53-9a4e-1f1f1f1f1f1f"

/** The use-case methods that are not among a record service's five, with the operation each must check. */
// oxlint-disable-next-line no-explicit-any -- each call needs its own use-case service; the test provides them all
const otherCalls: ReadonlyArray<readonly [string, Operation, Effect.Effect<unknown, unknown, any>]> = [
  [
    "ActivityService.listByTheme",
    "activity.read",
    Effect.flatMap(Effect.service(ActivityService), (s) => s.listByTheme("x"))
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
    "PlanningService.sessions",
    "planning.read",
    Effect.flatMap(Effect.service(PlanningService), (s) => s.sessions({} as never))
  ],
  [
    "CalendarFeedService.rotateToken",
    "feed.token",
    Effect.flatMap(Effect.service(CalendarFeedService), (s) => s.rotateToken())
  ],
  [
    "CalendarFeedService.revokeToken",
    "feed.token",
    Effect.flatMap(Effect.service(CalendarFeedService), (s) => s.revokeToken())
  ],
  [
    "SessionService.stream",
    "session.read",
    Effect.flatMap(Effect.service(SessionService), (s) => Effect.flatMap(s.stream(), Stream.runDrain))
  ],
  [
    "SeriesService.create",
    "series.create",
    Effect.flatMap(
      Effect.service(SeriesService),
      (s) =>
        s.create(
          { start: "1970-01-05T18:00:00", rrule: "FREQ=DAILY;COUNT=2", duree: 60, athleteIds: [] } as never
        )
    )
  ],
  ["SeriesService.read", "series.read", Effect.flatMap(Effect.service(SeriesService), (s) => s.read(1 as never))],
  [
    "SeriesService.conflicts",
    "conflict.read",
    Effect.flatMap(Effect.service(SeriesService), (s) => s.conflicts())
  ],
  ["SeriesService.cancel", "series.cancel", Effect.flatMap(Effect.service(SeriesService), (s) => s.cancel(1 as never))],
  [
    "SeriesService.cancelOccurrence",
    "occurrence.cancel",
    Effect.flatMap(Effect.service(SeriesService), (s) => s.cancelOccurrence(1 as never, 2 as never, "one"))
  ],
  // A hand-over (a change of `coachId` alone), which the hand-over roles may make too.
  [
    "SeriesService.change",
    "series.update",
    Effect.flatMap(Effect.service(SeriesService), (s) => s.change(1 as never, { coachId: 3 } as never))
  ],
  [
    "SeriesService.changeOccurrence",
    "occurrence.update",
    Effect.flatMap(
      Effect.service(SeriesService),
      (s) => s.changeOccurrence(1 as never, 2 as never, "one", { coachId: 3 } as never)
    )
  ],
  [
    "PlannedSessionService.create",
    "plannedSession.create",
    Effect.flatMap(
      Effect.service(PlannedSessionService),
      (s) => s.create({ creneau: "2026-01-05T18:00:00", duree: 60, athleteIds: [], coachId: null } as never)
    )
  ],
  [
    "PlannedSessionService.change",
    "plannedSession.update",
    Effect.flatMap(Effect.service(PlannedSessionService), (s) => s.change(1 as never, { coachId: 3 } as never))
  ],
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
  [
    "AttendanceService.configure",
    "attendance.configure",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.configure(1 as never, {} as never))
  ],
  [
    "AttendanceService.replies",
    "attendance.read",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.replies(1 as never))
  ],
  [
    "AttendanceService.invited",
    "attendance.read",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.invited(1 as never))
  ],
  [
    "AttendanceService.athleteSessions",
    "attendance.read",
    Effect.flatMap(
      Effect.service(AttendanceService),
      (s) => s.athleteSessions(1 as never, "2027-01-01" as never, "2027-01-31" as never)
    )
  ],
  [
    "AttendanceService.reply",
    "attendance.reply",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.reply(99 as never, 1 as never, anyInput, "one"))
  ],
  [
    "AttendanceService.mark",
    "attendance.mark",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.mark(1 as never, { marks: [] } as never))
  ],
  [
    "AttendanceService.presence",
    "attendance.presence",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.presence(1 as never))
  ],
  [
    "AttendanceService.figures",
    "attendance.figures",
    Effect.flatMap(Effect.service(AttendanceService), (s) => s.figures("2026-01-01" as never, "2026-12-31" as never))
  ],
  [
    "AttendanceService.athleteFigures",
    "attendance.athleteFigures",
    Effect.flatMap(
      Effect.service(AttendanceService),
      (s) => s.athleteFigures(99 as never, "2026-01-01" as never, "2026-12-31" as never)
    )
  ],
  [
    "AttendanceService.exportSeason",
    "attendance.export",
    Effect.flatMap(
      Effect.service(AttendanceService),
      (s) => s.exportSeason("2026-01-01" as never, "2026-12-31" as never)
    )
  ],
  [
    "WebhookService.register",
    "webhook.manage",
    Effect.flatMap(
      Effect.service(WebhookService),
      (s) => s.register({ url: "https://hooks.example.org/club", secret: "s".repeat(16) } as never)
    )
  ],
  ["AuditService.list", "audit.read", Effect.flatMap(Effect.service(AuditService), (s) => s.list({}))],
  ["WebhookService.list", "webhook.manage", Effect.flatMap(Effect.service(WebhookService), (s) => s.list())],
  [
    "WebhookService.remove",
    "webhook.manage",
    Effect.flatMap(Effect.service(WebhookService), (s) => s.remove(1 as never))
  ],
  [
    "WebhookService.attempts",
    "webhook.manage",
    Effect.flatMap(Effect.service(WebhookService), (s) => s.attempts(1 as never))
  ],
  [
    "WebhookService.replay",
    "webhook.manage",
    Effect.flatMap(Effect.service(WebhookService), (s) => s.replay(1 as never, 1 as never))
  ],
  [
    "GuardianService.link",
    "guardian.manage",
    Effect.flatMap(Effect.service(GuardianService), (s) => s.link(99 as never, 1 as never))
  ],
  [
    "GuardianService.unlink",
    "guardian.manage",
    Effect.flatMap(Effect.service(GuardianService), (s) => s.unlink(99 as never, 1 as never))
  ],
  [
    "GuardianService.athletesOf",
    "guardian.read",
    Effect.flatMap(Effect.service(GuardianService), (s) => s.athletesOf(99 as never))
  ],
  [
    "GuardianService.guardiansOf",
    "guardian.manage",
    Effect.flatMap(Effect.service(GuardianService), (s) => s.guardiansOf(1 as never))
  ],
  ["GroupService.create", "group.create", Effect.flatMap(Effect.service(GroupService), (s) => s.create(anyInput))],
  ["GroupService.get", "group.read", Effect.flatMap(Effect.service(GroupService), (s) => s.get(1 as never))],
  ["GroupService.list", "group.read", Effect.flatMap(Effect.service(GroupService), (s) => s.list({}))],
  [
    "GroupService.update",
    "group.update",
    Effect.flatMap(Effect.service(GroupService), (s) => s.update(1 as never, anyInput))
  ],
  ["GroupService.remove", "group.delete", Effect.flatMap(Effect.service(GroupService), (s) => s.remove(1 as never))],
  [
    "MembershipService.start",
    "membership.manage",
    Effect.flatMap(Effect.service(MembershipService), (s) => s.start(1 as never, anyInput))
  ],
  [
    "MembershipService.end",
    "membership.manage",
    Effect.flatMap(Effect.service(MembershipService), (s) => s.end(1 as never, anyInput))
  ],
  [
    "MembershipService.roster",
    "membership.read",
    Effect.flatMap(Effect.service(MembershipService), (s) => s.roster(1 as never, undefined, {}))
  ],
  [
    "MembershipService.history",
    "membership.read",
    Effect.flatMap(Effect.service(MembershipService), (s) => s.history(1 as never, {}))
  ],
  [
    "MembershipService.ofAthlete",
    "membership.read",
    Effect.flatMap(Effect.service(MembershipService), (s) => s.ofAthlete(1 as never, {}))
  ],
  [
    "PersonDataService.exportOf",
    "person.export",
    Effect.flatMap(Effect.service(PersonDataService), (s) => s.exportOf(99 as never))
  ],
  [
    "PersonDataService.erase",
    "person.erase",
    Effect.flatMap(Effect.service(PersonDataService), (s) => s.erase(99 as never))
  ],
  [
    "PersonDataService.exportOfAthlete",
    "athletePerson.export",
    Effect.flatMap(Effect.service(PersonDataService), (s) => s.exportOfAthlete(99 as never))
  ],
  [
    "PersonDataService.eraseAthlete",
    "athletePerson.erase",
    Effect.flatMap(Effect.service(PersonDataService), (s) => s.eraseAthlete(99 as never))
  ],
  [
    "NoticePreferenceService.mine",
    "noticePreference.own",
    Effect.flatMap(Effect.service(NoticePreferenceService), (s) => s.mine())
  ],
  [
    "NoticePreferenceService.setMine",
    "noticePreference.own",
    Effect.flatMap(Effect.service(NoticePreferenceService), (s) => s.setMine(anyInput))
  ],
  [
    "NoticePreferenceService.ofUser",
    "noticePreference.manage",
    Effect.flatMap(Effect.service(NoticePreferenceService), (s) => s.ofUser(99 as never))
  ],
  [
    "NoticePreferenceService.setForUser",
    "noticePreference.manage",
    Effect.flatMap(Effect.service(NoticePreferenceService), (s) => s.setForUser(99 as never, anyInput))
  ],
  ["AuthService.me", "auth.me", Effect.flatMap(Effect.service(AuthService), (s) => s.me())],
  ["TaskService.create", "task.create", Effect.flatMap(Effect.service(TaskService), (s) => s.create(anyInput))],
  ["TaskService.list", "task.list", Effect.flatMap(Effect.service(TaskService), (s) => s.list())],
  ["TaskService.delete", "task.delete", Effect.flatMap(Effect.service(TaskService), (s) => s.delete(taskId))]
]

/** Any service `makeRecordUseCases` made, its five methods by name. */
type AnyRecordService = Record<
  "create" | "list" | "get" | "update" | "delete",
  (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown>
>

/**
 * The five methods of every service `makeRecordUseCases` made (found among the use-cases by the
 * `operations` it exposes), each with the operation it must check. An update names record 99,
 * which the ATHLETE below does not own.
 */
const recordCalls = [...Effect.runSync(Effect.scoped(Layer.build(UseCases))).mapUnsafe].flatMap(
  ([key, service]) => {
    const operations = (service as Partial<{ readonly operations: RecordOperations }>).operations
    if (operations === undefined) return []
    const name = key.slice(key.lastIndexOf("/") + 1)
    const call = (method: keyof RecordOperations, operation: Operation, ...args: ReadonlyArray<unknown>) =>
      [
        `${name}.${method === "read" ? "get" : method}`,
        operation,
        Effect.flatMap(
          Effect.context<never>(),
          // The service as the test's own layer built it; the call only has to reach it.
          (context) => (context.mapUnsafe.get(key) as AnyRecordService)[method === "read" ? "get" : method](...args)
        )
      ] as const
    return [
      call("create", operations.create, anyInput),
      call("list", operations.list),
      call("read", operations.read, 1),
      call("update", operations.update, 99, anyInput),
      call("delete", operations.delete, 1)
    ]
  }
)

/** Every use-case method that a request can reach, with the operation it must check. */
// oxlint-disable-next-line no-explicit-any -- each call needs its own use-case service; the test provides them all
const calls: ReadonlyArray<readonly [string, Operation, Effect.Effect<unknown, unknown, any>]> = [
  ...recordCalls,
  ...otherCalls
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
    expect([...covered].sort()).toEqual([...Operations].sort())
  })

  for (const [name, operation, call] of calls) {
    for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
      const allowed = rolesAllowed(operation).includes(role)
      it.effect(`${name} as ${role}: ${allowed ? "reaches the port" : "NotPermitted"}`, () =>
        Effect.gen(function*() {
          const readsBefore = guardianReads
          const exit = yield* Effect.exit(call.pipe(Effect.provideService(CurrentActor, actorOf(role))))
          // A call answered by the guardians' port alone reached it too.
          const reached = outcome(exit) === "other" && guardianReads > readsBefore ? "reached" : outcome(exit)
          expect(reached).toBe(allowed ? "reached" : "forbidden")
        }).pipe(Effect.provide(UseCases)))
    }
  }
})
