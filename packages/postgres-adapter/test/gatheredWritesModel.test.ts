import {
  type Activity,
  ActivityRepository,
  ActivityWrite,
  AthleteId,
  AuditActor,
  CoachId,
  EntityNotFound,
  type LocalDateTime,
  type Session,
  SessionCreate,
  SessionId,
  SessionRepository,
  type SessionUpdate,
  UnknownReferences
} from "@club/core"
import { expect } from "@effect/vitest"
import fc from "fast-check"
import { type Context, Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/*
 * A model-based run (fast-check's `fc.commands`) aimed at the writes gathered per turn (decisions
 * 0316, 0318, 0323): each command is a batch of session creates, session updates and activity
 * creates by several users and the server, asked together, so that they are gathered into shared
 * statements and transactions; some name an unknown athlete, coach or session. After each batch:
 * - every ask is answered, and as the model says (a typed failure for an unknown reference or
 *   session, never a defect);
 * - the answers and the stored state are those of the batch's successful writes applied one after
 *   the other in some order (concurrent requests are serialised, never merged or lost);
 * - each session's `sessionChanged` events form one chain (each event's `previousDuree` is the
 *   `duree` of the one before it) and count its successful updates; one `sessionCreated` each;
 * - each audit entry of a request names its own user, concerns only its own write, and a failed
 *   write leaves none.
 * `GATHERED_MODEL_SEED` replays a run, `GATHERED_MODEL_RUNS` sets their number.
 */

const athleteCount = 6
const coachCount = 2
const maxAsksPerBatch = 6

type Actor = number | "server"
const actorOf = (actor: Actor, requestId: string) =>
  actor === "server" ? undefined : { userId: 900 + actor, role: actor === 0 ? "ADMIN" : "COACH", requestId }

type Ask =
  | {
    readonly kind: "create"
    readonly athletes: ReadonlyArray<number>
    readonly unknownAthlete: boolean
    readonly coach: number | "none" | "unknown"
    readonly duree: number | null
    readonly actor: Actor
  }
  | {
    readonly kind: "update"
    readonly pick: number | "missing"
    readonly duree: number | null | undefined
    readonly athletes: ReadonlyArray<number> | undefined
    readonly unknownAthlete: boolean
    readonly activities: ReadonlyArray<number> | undefined
    readonly actor: Actor
  }
  | { readonly kind: "activity"; readonly pick: number | "missing"; readonly actor: Actor }

const actorArbitrary: fc.Arbitrary<Actor> = fc.oneof(fc.constant("server" as const), fc.nat(2))
const athletesArbitrary = fc.array(fc.nat(athleteCount - 1), { maxLength: 5 })
const pickArbitrary = fc.oneof({ weight: 9, arbitrary: fc.nat() }, {
  weight: 1,
  arbitrary: fc.constant("missing" as const)
})
const dureeArbitrary = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 600 }) }, {
  weight: 1,
  arbitrary: fc.constant(null)
})
const askArbitrary: fc.Arbitrary<Ask> = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    athletes: athletesArbitrary,
    unknownAthlete: fc.boolean().map((b) => b && Math.random() < 0.2),
    coach: fc.oneof(fc.constant("none" as const), fc.nat(coachCount - 1), fc.constant("unknown" as const)),
    duree: dureeArbitrary,
    actor: actorArbitrary
  }).map((ask) => ask.unknownAthlete && ask.coach === "unknown" ? { ...ask, coach: "none" as const } : ask),
  fc.record({
    kind: fc.constant("update" as const),
    pick: pickArbitrary,
    duree: fc.option(dureeArbitrary, { nil: undefined }),
    athletes: fc.option(athletesArbitrary, { nil: undefined }),
    unknownAthlete: fc.boolean(),
    activities: fc.option(fc.array(fc.nat(), { maxLength: 3 }), { nil: undefined, freq: 3 }),
    actor: actorArbitrary
  }).map((ask) => ({
    ...ask,
    unknownAthlete: ask.unknownAthlete && ask.athletes !== undefined && ask.pick !== "missing"
  })),
  fc.record({ kind: fc.constant("activity" as const), pick: pickArbitrary, actor: actorArbitrary })
)

interface ModelSession {
  readonly name: string
  duree: number | null
  athletes: ReadonlyArray<number>
  readonly coachId: number | null
}
/** The model: the sessions and activities of this run, by id; an activity's session or null. */
interface State {
  readonly sessions: Map<number, ModelSession>
  readonly activities: Map<number, number | null>
}
const copy = (state: State): State => ({
  sessions: new Map([...state.sessions].map(([id, s]) => [id, { ...s }])),
  activities: new Map(state.activities)
})
const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b)
const viewOf = (state: State, id: number) => {
  const s = state.sessions.get(id)!
  return {
    id,
    name: s.name,
    duree: s.duree,
    coachId: s.coachId,
    athleteIds: s.athletes,
    activiteIds: ascending([...state.activities].filter(([, session]) => session === id).map(([activity]) => activity))
  }
}
const sessionView = (session: Session) => ({
  id: session.id,
  name: session.name,
  duree: session.duree,
  coachId: session.coachId,
  athleteIds: [...session.athleteIds],
  activiteIds: [...session.activiteIds]
})

/** A successful write of the batch, as it changes the model. */
type Applied =
  | { readonly kind: "update"; readonly id: number; readonly input: SessionUpdate; readonly answer: Session }
  | { readonly kind: "activity"; readonly id: number; readonly session: number }
const apply = (state: State, write: Applied) => {
  if (write.kind === "activity") {
    state.activities.set(write.id, write.session)
    return
  }
  const s = state.sessions.get(write.id)!
  if (write.input.duree !== undefined) s.duree = write.input.duree
  if (write.input.athleteIds !== undefined) s.athletes = ascending(write.input.athleteIds)
  if (write.input.activiteIds !== undefined) {
    const listed = new Set<number>(write.input.activiteIds)
    for (const [activity, session] of state.activities) {
      if (listed.has(activity)) state.activities.set(activity, write.id)
      else if (session === write.id) state.activities.set(activity, null)
    }
  }
}
/**
 * Every state the writes leave when applied one after the other in an order in which each update
 * answers the session as it left it: the serial orders that agree with the answers.
 */
const serialOutcomes = (start: State, writes: ReadonlyArray<Applied>): Array<State> => {
  const outcomes: Array<State> = []
  const search = (state: State, left: ReadonlyArray<Applied>) => {
    if (outcomes.length > 0 && left.length === 0) return void outcomes.push(state)
    if (left.length === 0) return void outcomes.push(state)
    for (const [index, write] of left.entries()) {
      const next = copy(state)
      apply(next, write)
      if (write.kind === "update" && !sameJson(viewOf(next, write.id), sessionView(write.answer))) continue
      search(next, left.filter((_, i) => i !== index))
    }
  }
  search(start, writes)
  return outcomes
}
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

interface Real {
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  readonly athletes: ReadonlyArray<AthleteId>
  readonly coaches: ReadonlyArray<CoachId>
  readonly unknownAthlete: AthleteId
  readonly unknownCoach: CoachId
  readonly run_: string
  batches: number
}
type Services = SessionRepository | ActivityRepository | SqlClient.SqlClient

class Batch implements fc.AsyncCommand<State, Real> {
  constructor(readonly asks: ReadonlyArray<Ask>) {}
  check() {
    return true
  }
  toString() {
    return `batch ${JSON.stringify(this.asks)}`
  }
  async run(model: State, real: Real) {
    const batch = `${real.run_}-${real.batches++}`
    const sessionIds = [...model.sessions.keys()]
    const activityIds = [...model.activities.keys()]
    const missingSession = SessionId.make(2 ** 40 + real.batches)
    const target = (pick: number | "missing") =>
      pick === "missing" || sessionIds.length === 0
        ? missingSession
        : SessionId.make(sessionIds[pick % sessionIds.length]!)
    const requestOf = (index: number) => `${batch}-${index}`
    const effects = this.asks.map((ask, index) => {
      const actor = actorOf(ask.actor, requestOf(index))
      const write: Effect.Effect<Session | Activity, unknown, Services> = (() => {
        switch (ask.kind) {
          case "create":
            return Effect.gen(function*() {
              return yield* (yield* SessionRepository).create(
                new SessionCreate({
                  id: null,
                  name: `${batch}-${index}`,
                  isRecurrent: false,
                  creneau: "2032-02-03T10:00:00" as LocalDateTime,
                  duree: ask.duree,
                  groupe: null,
                  coachId: ask.coach === "none"
                    ? null
                    : ask.coach === "unknown"
                    ? real.unknownCoach
                    : real.coaches[ask.coach]!,
                  athleteIds: [
                    ...ask.athletes.map((i) => real.athletes[i]!),
                    ...(ask.unknownAthlete ? [real.unknownAthlete] : [])
                  ],
                  activiteIds: []
                })
              )
            })
          case "update":
            return Effect.gen(function*() {
              return yield* (yield* SessionRepository).update(target(ask.pick), updateInput(ask))
            })
          case "activity":
            return Effect.gen(function*() {
              return yield* (yield* ActivityRepository).create(
                new ActivityWrite({
                  name: `${batch}-${index}`,
                  theme: "model",
                  duree: 10,
                  dataActivite: [],
                  sessionId: target(ask.pick)
                })
              )
            })
        }
      })()
      return Effect.exit(actor === undefined ? write : Effect.provideService(write, AuditActor, actor))
    })
    const updateInput = (ask: Extract<Ask, { kind: "update" }>): SessionUpdate =>
      ({
        ...(ask.duree === undefined ? {} : { duree: ask.duree }),
        ...(ask.athletes === undefined ? {} : {
          athleteIds: [
            ...ask.athletes.map((i) => real.athletes[i]!),
            ...(ask.unknownAthlete ? [real.unknownAthlete] : [])
          ]
        }),
        ...(ask.activities === undefined || activityIds.length === 0 ? {} : {
          activiteIds: ascending(ask.activities.map((pick) => activityIds[pick % activityIds.length]!)) as never
        })
      }) as SessionUpdate
    const eventsBefore = await real.run(lastEvent)
    const exits = await real.run(Effect.all(effects, { concurrency: "unbounded" }))

    // Each answer as the model says; the successful writes collected.
    const applied: Array<Applied> = []
    const created: Array<{ readonly id: number; readonly ask: Extract<Ask, { kind: "create" }> }> = []
    const failed = new Set<number>()
    for (const [index, ask] of this.asks.entries()) {
      const exit = exits[index]! as Exit.Exit<Session | Activity, unknown>
      const where = `ask ${index} ${JSON.stringify(ask)}`
      if (Exit.isFailure(exit) && (Exit.hasDies(exit) || Exit.hasInterrupts(exit) || !Exit.hasFails(exit))) {
        throw new Error(`${where}: a defect ${String(exit.cause)}`)
      }
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined
      if (error !== undefined) failed.add(index)
      switch (ask.kind) {
        case "create": {
          if (ask.unknownAthlete) {
            expect(error, where).toEqual(
              new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [real.unknownAthlete] })
            )
          } else if (ask.coach === "unknown") {
            expect(error, where).toEqual(
              new UnknownReferences({ field: "coachId", entity: "Coach", ids: [real.unknownCoach] })
            )
          } else {
            expect(error, where).toBeUndefined()
            const session = (exit as Exit.Success<Session>).value
            const coachId = ask.coach === "none" ? null : real.coaches[ask.coach]!
            const athletes = ascending(ask.athletes.map((i) => real.athletes[i]!))
            expect(sessionView(session), where).toEqual({
              id: session.id,
              name: `${batch}-${index}`,
              duree: ask.duree,
              coachId,
              athleteIds: athletes,
              activiteIds: []
            })
            expect(model.sessions.has(session.id), where).toBe(false)
            created.push({ id: session.id, ask })
            model.sessions.set(session.id, { name: `${batch}-${index}`, duree: ask.duree, athletes, coachId })
          }
          break
        }
        case "update": {
          const id = target(ask.pick)
          if (id === missingSession) {
            expect(error, where).toEqual(new EntityNotFound({ entity: "Session", id }))
          } else if (ask.unknownAthlete) {
            expect(error, where).toEqual(
              new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [real.unknownAthlete] })
            )
          } else {
            expect(error, where).toBeUndefined()
            applied.push({ kind: "update", id, input: updateInput(ask), answer: (exit as Exit.Success<Session>).value })
          }
          break
        }
        case "activity": {
          const id = target(ask.pick)
          if (id === missingSession) {
            expect(error, where).toEqual(new UnknownReferences({ field: "sessionId", entity: "Session", ids: [id] }))
          } else {
            expect(error, where).toBeUndefined()
            const activity = (exit as Exit.Success<Activity>).value
            expect(activity.sessionId, where).toBe(id)
            applied.push({ kind: "activity", id: activity.id, session: id })
          }
          break
        }
      }
    }

    // The stored state is one the batch's writes leave in some serial order that agrees with the answers.
    const createdActivities = applied.flatMap((write) => write.kind === "activity" ? [write.id] : [])
    const stored = await real.run(readState(model, createdActivities))
    const outcomes = serialOutcomes(copy(model), applied)
    expect(outcomes.length, `no serial order gives the answers of ${this.toString()}`).toBeGreaterThan(0)
    const storedJson = JSON.stringify(stored)
    const matching = outcomes.find((outcome) => JSON.stringify(snapshot(outcome)) === storedJson)
    if (matching === undefined) {
      throw new Error(
        `stored after ${this.toString()}:\n${storedJson}\nno serial order leaves it; one leaves:\n${
          JSON.stringify(snapshot(outcomes[0]!))
        }`
      )
    }
    model.sessions.clear()
    for (const [id, s] of matching.sessions) model.sessions.set(id, s)
    model.activities.clear()
    for (const [id, s] of matching.activities) model.activities.set(id, s)

    // Events: one sessionCreated per create; each session's sessionChanged events of this batch chain.
    const events = await real.run(eventsOf([...model.sessions.keys()], eventsBefore))
    for (const { id } of created) {
      expect(events.filter((e) => e.session === id && e.type === "sessionCreated"), `created ${id}`).toHaveLength(1)
    }
    const updates = applied.filter((write) => write.kind === "update")
    for (const id of new Set(updates.map((write) => write.id))) {
      const chain = events.filter((e) => e.session === id && e.type === "sessionChanged")
      expect(chain, `the sessionChanged events of ${id}`).toHaveLength(updates.filter((w) => w.id === id).length)
      for (const [k, event] of chain.entries()) {
        if (k > 0) {
          expect(event.previousDuree, `the events of ${id}: ${JSON.stringify(chain)}`).toBe(chain[k - 1]!.duree)
        }
      }
    }
    const activityEvents = events.filter((e) => e.type === "activityCreated").length
    expect(activityEvents).toBe(applied.filter((write) => write.kind === "activity").length)

    // The audit trail: each request's entries name its user and concern only its own write.
    const entries = await real.run(auditOf(batch))
    for (const [index, ask] of this.asks.entries()) {
      const own = entries.filter((entry) => entry.request === requestOf(index))
      const where = `the audit entries of ask ${index} ${JSON.stringify(ask)}: ${JSON.stringify(own)}`
      if (ask.actor === "server") continue
      if (failed.has(index)) {
        expect(own, where).toEqual([])
        continue
      }
      for (const entry of own) expect(entry.user, where).toBe(900 + ask.actor)
      const exit = exits[index] as Exit.Success<Session | Activity>
      if (ask.kind === "create") {
        const id = (exit.value as Session).id
        expect(own.filter((e) => e.type === "sessions").map((e) => [e.operation, e.id]), where).toEqual([[
          "insert",
          id
        ]])
        expect(
          own.filter((e) => e.type === "session_athletes").map((e) => [e.operation, e.session, e.athlete])
            .sort((a, b) => Number(a[2]) - Number(b[2])),
          where
        ).toEqual(model.sessions.get(id)!.athletes.map((athlete) => ["insert", id, athlete]))
        expect(own.every((e) => e.type === "sessions" || e.type === "session_athletes"), where).toBe(true)
      } else if (ask.kind === "activity") {
        expect(own.map((e) => [e.type, e.operation, e.id]), where).toEqual([[
          "activities",
          "insert",
          (exit.value as Activity).id
        ]])
      } else {
        const id = target(ask.pick)
        for (const entry of own) {
          const concerns = entry.type === "sessions"
            ? entry.id === id
            : entry.type === "session_athletes"
            ? entry.session === id
            : entry.type === "activities"
          expect(concerns, where).toBe(true)
        }
      }
    }
  }
}

const lastEvent = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ id: number }>`SELECT COALESCE(max(id), 0)::float8 AS id FROM attendance_events`
).pipe(Effect.map((rows) => rows[0]!.id))

/** The stored sessions and activities of the model's ids, as `snapshot` gives the model's. */
const readState = (model: State, createdActivities: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const sessions = yield* SessionRepository
    const sql = yield* SqlClient.SqlClient
    const ids = [...model.sessions.keys()].sort((a, b) => a - b)
    const views = []
    for (const id of ids) {
      const found = yield* sessions.findById(SessionId.make(id))
      views.push(Option.match(found, { onNone: () => ({ id, missing: true }), onSome: sessionView }))
    }
    const activityIds = [...model.activities.keys(), ...createdActivities].sort((a, b) => a - b)
    const activities = activityIds.length === 0 ?
      [] :
      yield* sql<{ id: string | number; session: string | number | null }>`
      SELECT id, session_id AS session FROM activities WHERE id = ANY(${activityIds.map(BigInt)}::bigint[]) ORDER BY id`
    const sessionCount = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM sessions
      WHERE id = ANY(${ids.map(BigInt)}::bigint[])`
    return {
      sessions: views,
      activities: activities.map((row) => [Number(row.id), row.session === null ? null : Number(row.session)]),
      count: sessionCount[0]!.count
    }
  })
const snapshot = (state: State) => {
  const ids = [...state.sessions.keys()].sort((a, b) => a - b)
  return {
    sessions: ids.map((id) => viewOf(state, id)),
    activities: [...state.activities].sort(([a], [b]) => a - b),
    count: ids.length
  }
}

/** The events of the sessions written after event `after`. */
const eventsOf = (sessions: ReadonlyArray<number>, after: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ session: string | number; type: string; data: { duree?: number | null; previousDuree?: number | null } }>`
      SELECT session_id AS session, type, data FROM attendance_events
      WHERE session_id = ANY(${sessions.map(BigInt)}::bigint[]) AND id > ${after}
      ORDER BY id`.pipe(Effect.map((rows) =>
        rows.map((row) => ({
          session: Number(row.session),
          type: row.type,
          duree: row.data.duree ?? null,
          previousDuree: row.data.previousDuree ?? null
        }))
      ))
  )

const auditOf = (batch: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{
      request: string
      user: string | number | null
      type: string
      operation: string
      id: string | number | null
      session: string | null
      athlete: string | null
    }>`SELECT request_id AS request, actor_user_id AS user, record_type AS type, operation,
        record_ids -> 'id' AS id, record_ids ->> 'session_id' AS session, record_ids ->> 'athlete_id' AS athlete
      FROM audit_entries WHERE request_id LIKE ${`${batch}-%`} ORDER BY id`.pipe(Effect.map((rows) =>
      rows.map((row) => ({
        request: row.request,
        user: row.user === null ? null : Number(row.user),
        type: row.type,
        operation: row.operation,
        id: row.id === null ? null : typeof row.id === "string" && !/^\d+$/u.test(row.id) ? row.id : Number(row.id),
        session: row.session === null ? null : Number(row.session),
        athlete: row.athlete === null ? null : Number(row.athlete)
      }))
    )))

onEachDatabase("Writes gathered per turn, against a model (fc.commands)", (it) => {
  it.effect(
    "batches of concurrent session creates, updates and activity creates by several users agree with the model",
    () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const context: Context.Context<Services> = yield* Effect.context<Services>()
        const athletes = (yield* sql<{ id: string | number }>`INSERT INTO athletes (name)
        SELECT 'model athlete ' || n FROM generate_series(1, ${athleteCount}) AS n RETURNING id`).map((row) =>
          AthleteId.make(Number(row.id))
        )
        const coaches = (yield* sql<{ id: string | number }>`INSERT INTO coaches (name)
        SELECT 'model coach ' || n FROM generate_series(1, ${coachCount}) AS n RETURNING id`).map((row) =>
          CoachId.make(Number(row.id))
        )
        const runPromise = Effect.runPromiseWith(context)
        const seed = process.env["GATHERED_MODEL_SEED"] === undefined
          ? Date.now() ^ (Math.random() * 0x7fffffff)
          : Number(process.env["GATHERED_MODEL_SEED"])
        const numRuns = Number(process.env["GATHERED_MODEL_RUNS"] ?? 12)
        let runs = 0
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.commands([
                fc.array(askArbitrary, { minLength: 1, maxLength: maxAsksPerBatch }).map((asks) => new Batch(asks))
              ], {
                maxCommands: 12
              }),
              async (commands) => {
                const real: Real = {
                  run: runPromise,
                  athletes,
                  coaches,
                  unknownAthlete: AthleteId.make(athletes.at(-1)! + 1000),
                  unknownCoach: CoachId.make(coaches.at(-1)! + 1000),
                  run_: `model-${seed}-${runs++}`,
                  batches: 0
                }
                await fc.asyncModelRun(
                  () => ({ model: { sessions: new Map(), activities: new Map() }, real }),
                  commands
                )
              }
            ),
            { seed, numRuns }
          ).catch((error: unknown) => {
            const cause = error instanceof Error && error.cause instanceof Error ? `\n${error.cause.message}` : ""
            throw new Error(`GATHERED_MODEL_SEED=${seed}: ${String(error)}${cause}`)
          })
        )
      }),
    { timeout: 600_000 }
  )
})
