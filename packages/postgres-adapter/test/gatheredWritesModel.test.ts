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
  | { readonly kind: "delete"; readonly pick: number | "missing"; readonly actor: Actor }

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
/** True about one time in five. */
const rarely = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })
const askArbitrary: fc.Arbitrary<Ask> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      athletes: athletesArbitrary,
      unknownAthlete: rarely,
      coach: fc.oneof(
        { weight: 3, arbitrary: fc.constant("none" as const) },
        { weight: 3, arbitrary: fc.nat(coachCount - 1) },
        { weight: 1, arbitrary: fc.constant("unknown" as const) }
      ),
      duree: dureeArbitrary,
      actor: actorArbitrary
    }).map((ask) => ask.unknownAthlete && ask.coach === "unknown" ? { ...ask, coach: "none" as const } : ask)
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("update" as const),
      pick: pickArbitrary,
      duree: fc.option(dureeArbitrary, { nil: undefined }),
      athletes: fc.option(athletesArbitrary, { nil: undefined }),
      unknownAthlete: rarely,
      activities: fc.option(fc.array(fc.nat(), { maxLength: 3 }), { nil: undefined, freq: 3 }),
      actor: actorArbitrary
    }).map((ask) => ({
      ...ask,
      unknownAthlete: ask.unknownAthlete && ask.athletes !== undefined && ask.pick !== "missing"
    }))
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("activity" as const), pick: pickArbitrary, actor: actorArbitrary })
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: pickArbitrary, actor: actorArbitrary })
  }
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

/**
 * A write of the batch on a session that existed before it: what it answers depends on the order in
 * which the batch's writes were applied (an update after a delete of its session is not found).
 */
interface Ordered {
  readonly index: number
  readonly kind: "update" | "activity" | "delete"
  readonly target: number
  readonly input: SessionUpdate
  readonly unknownAthlete: AthleteId | undefined
  readonly exit: Exit.Exit<Session | Activity | void, unknown>
}
const applyUpdate = (state: State, id: number, input: SessionUpdate) => {
  const s = state.sessions.get(id)!
  if (input.duree !== undefined) s.duree = input.duree
  if (input.athleteIds !== undefined) s.athletes = ascending(input.athleteIds)
  if (input.activiteIds !== undefined) {
    const listed = new Set<number>(input.activiteIds)
    for (const [activity, session] of state.activities) {
      if (listed.has(activity)) state.activities.set(activity, id)
      else if (session === id) state.activities.set(activity, null)
    }
  }
}
/** What `op` answers in `state`: its failure, or how it changes the state. */
const outcomeIn = (state: State, op: Ordered): { readonly error: unknown } | { readonly apply: (s: State) => void } => {
  const { target } = op
  if (op.kind === "activity") {
    if (!state.sessions.has(target)) {
      return { error: new UnknownReferences({ field: "sessionId", entity: "Session", ids: [target] }) }
    }
    const id = Exit.isSuccess(op.exit) ? (op.exit.value as Activity).id : -1
    return { apply: (s) => void s.activities.set(id, target) }
  }
  if (!state.sessions.has(target)) return { error: new EntityNotFound({ entity: "Session", id: target }) }
  if (op.kind === "delete") {
    return {
      apply: (s) => {
        s.sessions.delete(target)
        for (const [activity, session] of s.activities) if (session === target) s.activities.delete(activity)
      }
    }
  }
  if (op.unknownAthlete !== undefined) {
    return { error: new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [op.unknownAthlete] }) }
  }
  const gone = ascending((op.input.activiteIds ?? []).filter((activity) => !state.activities.has(activity)))
  if (gone.length > 0) return { error: new UnknownReferences({ field: "activiteIds", entity: "Activity", ids: gone }) }
  return { apply: (s) => applyUpdate(s, target, op.input) }
}
const errorOf = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined
/**
 * Every state the writes leave when applied one after the other in an order in which each answers
 * as it did (its failure, or an update the session as it left it): the serial orders that agree
 * with the answers.
 */
const serialOutcomes = (start: State, writes: ReadonlyArray<Ordered>): Array<State> => {
  const outcomes: Array<State> = []
  const search = (state: State, left: ReadonlyArray<Ordered>) => {
    if (left.length === 0) return void outcomes.push(state)
    for (const [index, op] of left.entries()) {
      const outcome = outcomeIn(state, op)
      const next = copy(state)
      if ("error" in outcome) {
        const error = errorOf(op.exit)
        if (
          error === undefined || !sameJson([error], [outcome.error]) ||
          (error as { _tag?: string })._tag !== (outcome.error as { _tag?: string })._tag
        ) continue
      } else {
        if (Exit.isFailure(op.exit)) continue
        outcome.apply(next)
        if (op.kind === "update" && !sameJson(viewOf(next, op.target), sessionView(op.exit.value as Session))) continue
      }
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
  readonly stats: Map<string, number>
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
      const write: Effect.Effect<Session | Activity | void, unknown, Services> = (() => {
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
          case "delete":
            return Effect.gen(function*() {
              return yield* (yield* SessionRepository).delete(target(ask.pick))
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

    // Each answer as the model says: the creates and the writes on no session at once, the others by
    // the order search below.
    const ordered: Array<Ordered> = []
    const created: Array<{ readonly id: number; readonly ask: Extract<Ask, { kind: "create" }> }> = []
    const before = copy(model)
    for (const [index, ask] of this.asks.entries()) {
      const exit = exits[index]! as Exit.Exit<Session | Activity | void, unknown>
      const where = `ask ${index} ${JSON.stringify(ask)}`
      if (Exit.isFailure(exit) && (Exit.hasDies(exit) || Exit.hasInterrupts(exit) || !Exit.hasFails(exit))) {
        throw new Error(`${where}: a defect ${String(exit.cause)}`)
      }
      const error = errorOf(exit)
      if (ask.kind === "create") {
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
          expect(before.sessions.has(session.id), where).toBe(false)
          created.push({ id: session.id, ask })
          before.sessions.set(session.id, { name: `${batch}-${index}`, duree: ask.duree, athletes, coachId })
        }
        continue
      }
      const id = target(ask.pick)
      if (id === missingSession) {
        expect(error, where).toEqual(
          ask.kind === "activity"
            ? new UnknownReferences({ field: "sessionId", entity: "Session", ids: [id] })
            : new EntityNotFound({ entity: "Session", id })
        )
        continue
      }
      ordered.push({
        index,
        kind: ask.kind,
        target: id,
        input: ask.kind === "update" ? updateInput(ask) : {} as SessionUpdate,
        unknownAthlete: ask.kind === "update" && ask.unknownAthlete ? real.unknownAthlete : undefined,
        exit
      })
    }
    const failed = new Set(this.asks.flatMap((_, index) => Exit.isFailure(exits[index]!) ? [index] : []))
    for (const [index, ask] of this.asks.entries()) {
      const key = `${ask.kind} ${failed.has(index) ? (errorOf(exits[index]!) as { _tag: string })._tag : "ok"}`
      real.stats.set(key, (real.stats.get(key) ?? 0) + 1)
    }

    // The stored state is one the batch's writes leave in some serial order that agrees with the answers.
    const createdActivities = ordered.flatMap((op) =>
      op.kind === "activity" && Exit.isSuccess(op.exit) ? [(op.exit.value as Activity).id] : []
    )
    const sessionsRead = [...before.sessions.keys()]
    const stored = await real.run(readState(sessionsRead, [...before.activities.keys(), ...createdActivities]))
    const outcomes = serialOutcomes(before, ordered)
    if (outcomes.length === 0) {
      throw new Error(
        `no serial order gives the answers of ${this.toString()}: ${
          JSON.stringify(ordered.map((op) => [op.index, String(op.exit)]))
        }`
      )
    }
    const storedJson = JSON.stringify(stored)
    const matching = outcomes.find((outcome) => JSON.stringify(snapshot(outcome, sessionsRead)) === storedJson)
    if (matching === undefined) {
      throw new Error(
        `stored after ${this.toString()}:\n${storedJson}\nno serial order leaves it; one leaves:\n${
          JSON.stringify(snapshot(outcomes[0]!, sessionsRead))
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
    const updates = ordered.filter((op) => op.kind === "update" && Exit.isSuccess(op.exit))
    for (const id of new Set(updates.map((op) => op.target).filter((id) => model.sessions.has(id)))) {
      const chain = events.filter((e) => e.session === id && e.type === "sessionChanged")
      expect(chain, `the sessionChanged events of ${id}`).toHaveLength(updates.filter((op) => op.target === id).length)
      for (const [k, event] of chain.entries()) {
        if (k > 0) {
          expect(event.previousDuree, `the events of ${id}: ${JSON.stringify(chain)}`).toBe(chain[k - 1]!.duree)
        }
      }
    }
    const activityEvents = events.filter((e) => e.type === "activityCreated").length
    expect(activityEvents).toBe(
      ordered.filter((op) => op.kind === "activity" && Exit.isSuccess(op.exit) && model.sessions.has(op.target)).length
    )

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
        // An update's or a delete's entries are of its session, its athletes and activities (an
        // activity detached by an update names no session).
        const id = target(ask.pick)
        for (const entry of own) {
          const concerns = entry.type === "sessions"
            ? entry.id === id && entry.operation === (ask.kind === "delete" ? "delete" : "update")
            : entry.type === "session_athletes"
            ? entry.session === id
            : entry.type === "activities" &&
              (entry.session === id || (ask.kind === "update" && entry.session === null))
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

/** The stored sessions of `sessionIds` (a deleted one as missing) and activities of `activityIds` that exist. */
const readState = (sessionIds: ReadonlyArray<number>, activityIds: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const sessions = yield* SessionRepository
    const sql = yield* SqlClient.SqlClient
    const views = []
    for (const id of [...sessionIds].sort((a, b) => a - b)) {
      const found = yield* sessions.findById(SessionId.make(id))
      views.push(Option.match(found, { onNone: () => ({ id, missing: true }), onSome: sessionView }))
    }
    const activities = activityIds.length === 0 ? [] : yield* sql<
      { id: string | number; session: string | number | null }
    >`SELECT id, session_id AS session FROM activities WHERE id = ANY(${activityIds.map(BigInt)}::bigint[]) ORDER BY id`
    return {
      sessions: views,
      activities: activities.map((row) => [Number(row.id), row.session === null ? null : Number(row.session)])
    }
  })
const snapshot = (state: State, sessionIds: ReadonlyArray<number>) => ({
  sessions: [...sessionIds].sort((a, b) => a - b).map((id) =>
    state.sessions.has(id) ? viewOf(state, id) : { id, missing: true }
  ),
  activities: [...state.activities].sort(([a], [b]) => a - b)
})

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
        const stats = new Map<string, number>()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.commands([
                fc.array(askArbitrary, { minLength: 1, maxLength: maxAsksPerBatch }).map((asks) => new Batch(asks))
              ], {
                maxCommands: 12,
                size: "max"
              }),
              async (commands) => {
                const real: Real = {
                  run: runPromise,
                  athletes,
                  coaches,
                  unknownAthlete: AthleteId.make(athletes.at(-1)! + 1000),
                  unknownCoach: CoachId.make(coaches.at(-1)! + 1000),
                  run_: `model-${seed}-${runs++}`,
                  batches: 0,
                  stats
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
          }).finally(() => {
            console.info(
              `Gathered writes' model: seed ${seed}, ${runs} runs; asks by outcome: ${
                [...stats].sort().map(([key, n]) => `${key} ${n}`).join(", ")
              }`
            )
          })
        )
      }),
    { timeout: 600_000 }
  )
})
