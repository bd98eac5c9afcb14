import { AuditActor, traced } from "@club/core"
import {
  type AthleteId,
  type CreneauRange,
  type FeedScope,
  type FeedSession,
  EntityNotFound,
  IdAlreadyInUse,
  type LocalDateTime,
  ScheduleConflict,
  ScheduleSettings,
  SeriesId,
  type SessionCreate,
  type SessionFilter,
  type SessionId,
  type Session,
  type SessionPosition,
  type SessionQuery,
  SessionRepository,
  type SessionUpdate,
  SessionValues,
  sessionCancelled,
  sessionChanged,
  sessionCreated,
  type SessionFacts,
  sessionValuesOf
} from "@club/core"
import { Data, Effect, Layer, Option, Result, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { activitySummaryFromRow } from "../records/activityRow.ts"
import { readRows, valuesFromRow } from "../shared/rowReader.ts"
import { ofRow } from "../shared/ofRow.ts"
import { sessionFromRow, sessionSummaryFromRow } from "./sessionRow.ts"
import { classifyCause, dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { type AroundInsert, insertWithGeneratedId, insertWithSuppliedId } from "../shared/insertWithId.ts"
import { bookSessions, sessionsMet } from "./bookings.ts"
import { int8Array } from "../shared/int8Array.ts"
import { readsById, readsGathered } from "../shared/readsGathered.ts"
import { onForeignKeyViolation } from "../shared/onForeignKeyViolation.ts"
import { failOnUnknown, type References, requireKnownIds } from "../shared/requireKnownIds.ts"
import { unknownIdsAndRows } from "../shared/unknownIds.ts"
import { type ActorAsk, gatheredPerTurn, rowActorsOf } from "../shared/gatheredPerTurn.ts"
import { refusedByServer } from "../shared/refusedByServer.ts"
import { rowsAsJson } from "../shared/rowsAsJson.ts"
import { byColumn, columnOf } from "../shared/snakeCase.ts"
import { autocommitWrite, inCallersTransaction, namingTheActor, transaction } from "../shared/transaction.ts"
import { eventsOfWritten, writeEvents } from "../webhooks/outbox.ts"

/** A create's listed coach, athlete or activity that the database did not find. */
class ReferencesRefused extends Data.TaggedError("ReferencesRefused") {}

/** The most athletes a session create may list and be gathered with others (decision 0323). */
export const maxAthletesGathered = 64

/** The most session updates of one turn that one transaction writes (decision 0323). */
export const updatesPerTransaction = 4

/** Sessions per statement of a full listing. */
export const sessionsPerPage = 1_000

/** `creneau` as the local time it was stored as: the driver would read a timestamp as UTC. */
const creneauColumn = `to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau`

/** What a session event tells of the session as it was, read with the lock of its row (`t`). */
const factsColumns =
  `t.name, to_char(t.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau, t.duree, t.series_id AS "seriesId"`
const factsOf = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  creneau: Schema.NullOr(Schema.String),
  duree: Schema.NullOr(Schema.Number),
  seriesId: Schema.NullOr(Schema.Number)
})
const factsFromRow = valuesFromRow(factsOf.fields)

/** The athletes and activities a write lists, each list bound once as the `bigint[]` its statement reads. */
interface BoundLists {
  readonly athleteIds?: ReadonlyArray<bigint>
  readonly activiteIds?: ReadonlyArray<bigint>
}
const boundLists = (
  input: {
    readonly athleteIds?: ReadonlyArray<number> | undefined
    readonly activiteIds?: ReadonlyArray<number> | undefined
  }
): BoundLists => ({
  ...(input.athleteIds === undefined ? {} : { athleteIds: int8Array(input.athleteIds) }),
  ...(input.activiteIds === undefined ? {} : { activiteIds: int8Array(input.activiteIds) })
})

export const SessionRepositoryLive = Layer.effect(
  SessionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // Each of core's SessionValues from its column, under its field's name.
    const valueColumns = Object.keys(SessionValues).map((field) =>
      field === "creneau" ? creneauColumn : `s.${columnOf(field)} AS "${field}"`
    ).join(", ")

    const storedAthletes = sql.literal(
      `ARRAY(SELECT sa.athlete_id FROM session_athletes sa WHERE sa.session_id = s.id ORDER BY sa.athlete_id)`
    )
    const storedActivities = sql.literal(`ARRAY(SELECT a.id FROM activities a WHERE a.session_id = s.id ORDER BY a.id)`)
    /** The ids a write listed, as the session answers them once written: ascending, without repeats. */
    const listed = (ids: ReadonlyArray<bigint>) =>
      sql`ARRAY(SELECT DISTINCT x FROM unnest(${ids}::bigint[]) AS x ORDER BY x)`

    /**
     * One row per session of `source` (a table, or a WITH of a write's RETURNING), its athlete and
     * activity ids aggregated in the same query, so reading sessions costs one query whatever their
     * size. A write's WITH sees the tables as they were before it, so the ids a write has just
     * stored are answered from its input.
     */
    const sessionsFrom = (source: string, written: BoundLists = {}) =>
      sql`SELECT s.id, ${sql.literal(valueColumns)},
      ${written.athleteIds === undefined ? storedAthletes : listed(written.athleteIds)} AS "athleteIds",
      ${written.activiteIds === undefined ? storedActivities : listed(written.activiteIds)} AS "activiteIds"
      FROM ${sql(source)} s`
    const selectSessions = sessionsFrom("sessions")

    // A filter's fields are the session's own columns (`columnOf`: `coachId` is coach_id);
    // IS NOT DISTINCT FROM lets a null match a session without a value, as the port says.
    const matching = (filter: SessionFilter) =>
      Object.entries(filter).map(([field, value]) => sql`s.${sql(columnOf(field))} IS NOT DISTINCT FROM ${value}`)

    const sessionsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
      Effect.sync(() => readRows(sessionFromRow)(rows))

    const findOne = readsById(
      sql,
      (ids) =>
        Effect.flatMap(
          sql<Record<string, unknown>>`${selectSessions} WHERE s.id = ANY(${int8Array(ids)}::bigint[])`,
          sessionsOf
        )
    )

    // Read in pages by id, each page its own short statement, so that a listing of any size holds
    // one page in memory, and a slow reader never keeps a database connection while it reads (the
    // embedded database has a single one). A session written meanwhile may or may not be listed.
    const page = (filter: SessionFilter) => (after: number) =>
      Effect.map(
        Effect.flatMap(
          sql<Record<string, unknown>>`${selectSessions} WHERE ${
            sql.and([sql`s.id > ${after}`, ...matching(filter)])
          } ORDER BY s.id LIMIT ${sessionsPerPage}`,
          sessionsOf
        ),
        (sessions) =>
          [sessions, sessions.length < sessionsPerPage ? Option.none() : Option.some(sessions.at(-1)!.id)] as const
      )
    const streamOf = (filter: SessionFilter) =>
      Stream.paginate(0, page(filter)).pipe(Stream.catchCause((cause) => Stream.failCause(classifyCause(cause))))
    const streamAll = streamOf({})

    const summariesOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
      Effect.sync(() => readRows(sessionSummaryFromRow)(rows))

    const listSummaries = Effect.flatMap(
      sql<Record<string, unknown>>`SELECT id, name FROM sessions ORDER BY id`,
      summariesOf
    )

    const athletesNamed = (ids: ReadonlyArray<number>): References => ({
      field: "athleteIds",
      entity: "Athlete",
      table: "athletes",
      ids
    })
    const activitiesNamed = (ids: ReadonlyArray<number>): References => ({
      field: "activiteIds",
      entity: "Activity",
      table: "activities",
      ids
    })

    // The parts of a write's WITH, each after `written` (the session's row as the write leaves it).
    const addAthletes = (athleteIds: ReadonlyArray<bigint>) =>
      sql`added AS (INSERT INTO session_athletes (session_id, athlete_id)
        SELECT written.id, athlete_id FROM written, unnest(${athleteIds}::bigint[]) AS athlete_id
        ON CONFLICT DO NOTHING)`
    const removeOtherAthletes = (sessionId: number, athleteIds: ReadonlyArray<bigint>) =>
      sql`removed AS (DELETE FROM session_athletes
        WHERE session_id = ${sessionId} AND NOT (athlete_id = ANY(${athleteIds}::bigint[])))`
    /** An activity belongs to one session: listed activities leave the session they were in. */
    const moveActivities = (activityIds: ReadonlyArray<bigint>) =>
      sql`moved AS (UPDATE activities SET session_id = written.id FROM written
        WHERE activities.id = ANY(${activityIds}::bigint[]) RETURNING activities.id)`
    /** The session's activities no longer listed are detached (session_id NULL), not deleted. */
    const detachOtherActivities = (sessionId: number, activityIds: ReadonlyArray<bigint>) =>
      sql`detached AS (UPDATE activities SET session_id = NULL
        WHERE session_id = ${sessionId} AND NOT (id = ANY(${activityIds}::bigint[])))`

    /**
     * The session's row, its memberships, its activities and its `sessionCreated` event (with its
     * webhook deliveries and notices) written by one statement, which answers the session as written
     * and, as `movedActivities`, how many of the listed activities it moved. It names the request's
     * user to the audit trail itself (`actor`), one round trip fewer. `send` runs it: alone, or in
     * the create's transaction.
     */
    const insertedWithLinks = (
      input: SessionCreate,
      actor: Fragment,
      events: ReadonlyArray<Fragment>,
      send: (statement: Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>) => Effect.Effect<
        ReadonlyArray<Record<string, unknown>>,
        SqlError
      >
    ): AroundInsert =>
    (insert) => {
      const lists = { athleteIds: int8Array(input.athleteIds), activiteIds: int8Array(input.activiteIds) }
      const activities = input.activiteIds.length === 0 ? [] : [moveActivities(lists.activiteIds)]
      const moved = activities.length === 0 ? sql.literal("0") : sql.literal("(SELECT count(*)::int FROM moved)")
      return send(sql<Record<string, unknown>>`WITH written AS (${insert} RETURNING *),
        ${sql.csv([addAthletes(lists.athleteIds), ...activities, ...events])}
        SELECT q.*, ${moved} AS "movedActivities"
        FROM (${sessionsFrom("written", lists)}) q ${actor}`)
    }

    /** Books a new session's coach and athletes, or refuses naming the sessions that hold the time. */
    // Each step below is one generator function for every call (Effect.fnUntraced), not an
    // `Effect.gen` of a new one per call (docs/DECISIONS.md, "No generator function made per request").
    const bookOrRefuse = Effect.fnUntraced(function*(id: number) {
      const { timeZone } = yield* ScheduleSettings
      if (yield* bookSessions(sql, timeZone, [id])) {
        return yield* new ScheduleConflict({ sessionIds: yield* sessionsMet(sql, timeZone, [id]) })
      }
    })

    /** A statement the create sends in its transaction. */
    const inTheTransaction = <A, E>(statement: Effect.Effect<A, E>) => statement
    /**
     * A statement sent alone, committed by itself: a connection lost once it was sent leaves its
     * outcome unknown, and it is not sent again; it runs to its end even when the caller goes away,
     * as a transaction does.
     */
    const alone = <A, E>(statement: Effect.Effect<A, E>) => Effect.uninterruptible(autocommitWrite(sql)(statement))

    const insertSession = Effect.fnUntraced(function*(input: SessionCreate, send: typeof alone) {
      const values = byColumn(sessionValuesOf(input))
      // The event is core's, built from the input: the statement takes the session's id from its
      // row (`eventsOfWritten`), the only value of the event the database gives.
      const created = sessionCreated({ ...input, id: input.id ?? 0, seriesId: null })
      const events = yield* eventsOfWritten(sql, [created], [{ athleteIds: input.athleteIds }])
      const around = insertedWithLinks(input, yield* namingTheActor(sql), events, send)
      if (input.id === null) return yield* insertWithGeneratedId(sql, "sessions", values, around)
      const row = yield* insertWithSuppliedId(sql, "sessions", input.id, values, around)
      if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity: "Session", id: input.id })
      return row.value
    })

    /** The insert, the read of the session it answers and, where the settings say so, its bookings. */
    const insertAndBook = Effect.fnUntraced(function*(input: SessionCreate, send: typeof alone) {
      const row = yield* insertSession(input, send)
      if (row["movedActivities"] !== new Set(input.activiteIds).size) return yield* new ReferencesRefused()
      const session = yield* Effect.sync(() => sessionFromRow(row))
      // SCHEDULE_SEED_REFUSES_CONFLICTS: the seed's session books its people as /planning's do.
      if ((yield* ScheduleSettings).seedRefusesConflicts === true) yield* bookOrRefuse(session.id)
      return session
    })

    const inTransaction = transaction(sql, { actorNamedByTheWrite: true })

    /** The columns of a session's values, in `SessionValues`' order. */
    const valueColumnNames = Object.keys(SessionValues).map(columnOf)
    const insertedColumns = sql.literal(valueColumnNames.join(", "))
    const askedColumns = sql.literal(valueColumnNames.map((column) => `asked.${column}`).join(", "))

    /**
     * The plain creates of one turn (no supplied id, no activities, no bookings: see
     * `createAssumingKnownReferences`) as one statement that commits by itself, as the activity
     * creates of a turn are (decisions 0318 and 0323): the sessions, their athletes, and each one's
     * `sessionCreated` event with its deliveries and notices (`eventsOfWritten`: the n-th event is of
     * the n-th session by id, the ids being drawn in the order asked). Each row's audit entry names
     * its own request's user, in both tables (`club.audit_row_actors`, migration 0041). A create
     * alone is the statement it always was (`insertAndBook`), under its own request's user.
     * A refusal by the server (an unknown coach or athlete, an id a supplied one took meanwhile)
     * of several creates sends each again alone, so that it is only its own create's failure, named
     * the checked way; any other failure is every create's, never sent again (`gatheredPerTurn`).
     */
    const sendCreates = Effect.fnUntraced(function*(asks: ReadonlyArray<ActorAsk<SessionCreate>>) {
      if (asks.length === 1) {
        const [{ actor, ask }] = asks as readonly [ActorAsk<SessionCreate>]
        return [yield* Effect.provideService(insertAndBook(ask, alone), AuditActor, actor)]
      }
      // Each create's athletes once each, in the order listed: a new session holds none, so each
      // is a row inserted, in that order, with its create's actor.
      const athletesOf = asks.map(({ ask }) => Array.from(new Set(ask.athleteIds)))
      const athleteOf: Array<number> = []
      const athleteId: Array<bigint> = []
      const athleteActors: Array<AuditActor> = []
      athletesOf.forEach((athleteIds, index) => {
        for (const id of athleteIds) {
          athleteOf.push(index + 1)
          athleteId.push(BigInt(id))
          athleteActors.push(asks[index]!.actor)
        }
      })
      const events = asks.map(({ ask }) => sessionCreated({ ...ask, id: 0, seriesId: null }))
      const outbox = yield* eventsOfWritten(sql, events, athletesOf.map((athleteIds) => ({ athleteIds })))
      const actors = rowActorsOf({ sessions: asks.map(({ actor }) => actor), session_athletes: athleteActors })
      const statement = sql<Record<string, unknown>>`WITH actor AS MATERIALIZED (
          SELECT set_config('club.audit_row_actors', ${actors}, true)
        ),
        written AS (INSERT INTO sessions (${insertedColumns})
          SELECT ${askedColumns}
          FROM actor, jsonb_populate_recordset(NULL::sessions, ${
        rowsAsJson(asks.map(({ ask }) => byColumn(sessionValuesOf(ask))))
      }::jsonb)
          WITH ORDINALITY AS asked ORDER BY asked.ordinality
          RETURNING *),
        added AS (INSERT INTO session_athletes (session_id, athlete_id)
          SELECT w.id, x.athlete_id
          FROM unnest(${athleteOf}::int[], ${athleteId}::bigint[]) WITH ORDINALITY AS x(n, athlete_id, ord)
          JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM written) w ON w.n = x.n
          ORDER BY x.ord
          RETURNING session_id, athlete_id),
        ${sql.csv(outbox)}
        SELECT s.id, ${sql.literal(valueColumns)},
          ARRAY(SELECT a.athlete_id FROM added a WHERE a.session_id = s.id ORDER BY a.athlete_id) AS "athleteIds",
          '{}'::bigint[] AS "activiteIds"
        FROM written s ORDER BY s.id`
      return yield* Effect.flatMap(alone(statement), sessionsOf)
    })
    const createGathered = gatheredPerTurn({
      sql,
      sendMany: sendCreates,
      keyOf: () => "sessions",
      // A create of many athletes (up to a request body's worth) is its own statement, so that one
      // statement's rows and parameters stay bounded however many such creates come at once.
      alone: ({ ask }) => ask.athleteIds.length > maxAthletesGathered,
      eachAloneWhen: refusedByServer((error) => error._tag === "ReferencesRefused")
    })

    /**
     * A create assumes that what it lists exists, and the database checks it in the insert itself:
     * the foreign keys of the coach and of each athlete (which also lock them, as a check would), and
     * the count of activities moved. A create that lists no activity and books nothing is then one
     * statement, committed by itself (decision 0317): what it answers cannot fail to decode, since
     * the database refuses a session row that could not be answered (migration 0038); the others
     * are a transaction, the count of activities or the bookings deciding after the insert. A
     * reference refused keeps nothing (the statement, or the transaction, is rolled back), and the
     * create is made again the checked way, which names the unknown ids (or, if they appeared
     * meanwhile, writes the session).
     */
    const createAssumingKnownReferences = Effect.fnUntraced(function*(input: SessionCreate) {
      const { seedRefusesConflicts } = yield* ScheduleSettings
      // In a caller's transaction (an idempotency key's) the create is a savepoint, as any nested
      // transaction: a refused reference rolls back to it, and the checked create goes on in the
      // caller's transaction, which a failed statement alone would have aborted.
      const byItself = input.activiteIds.length === 0 && seedRefusesConflicts !== true &&
        !(yield* inCallersTransaction(sql))
      return yield* (byItself
        ? createGathered({ ask: input, actor: yield* AuditActor })
        : inTransaction(insertAndBook(input, inTheTransaction))).pipe(
          onForeignKeyViolation({
            sessions_coach_id_fkey: () => new ReferencesRefused(),
            session_athletes_athlete_id_fkey: () => new ReferencesRefused()
          })
        )
    })

    /**
     * The create with every reference checked first, in one statement that locks what it finds, so
     * that the insert cannot be refused one (only a row deleted meanwhile could, which the lock prevents).
     */
    const createCheckingReferences = Effect.fnUntraced(
      function*(input: SessionCreate) {
        yield* requireKnownIds(
          sql,
          athletesNamed(input.athleteIds),
          activitiesNamed(input.activiteIds),
          { field: "coachId", entity: "Coach", table: "coaches", ids: input.coachId === null ? [] : [input.coachId] }
        )
        return yield* insertAndBook(input, inTheTransaction)
      },
      inTransaction,
      Effect.catchTag("ReferencesRefused", () => Effect.die(new Error("A checked reference was refused")))
    )

    const create = traced("SessionRepository.create")(function*(input: SessionCreate) {
      // A supplied id already in use is answered only once the references are known to exist.
      if (input.id !== null) return yield* createCheckingReferences(input)
      return yield* createAssumingKnownReferences(input).pipe(
        Effect.catchTag("ReferencesRefused", () => createCheckingReferences(input))
      )
    }, dieOnInfrastructureError)

    const findById = traced("SessionRepository.findById")(function*(id: SessionId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const stream = () => streamAll.pipe(Stream.withSpan("SessionRepository.stream"))

    const list = traced("SessionRepository.list")(function*(filter: SessionFilter = {}) {
      return yield* Stream.runCollect(streamOf(filter))
    })

    /**
     * The activities that updates listing activities may write, locked in id order: those they list
     * and those their sessions hold (which they may detach). Every transaction that moves activities
     * locks its sessions, then these, each in id order, so that two updates exchanging activities
     * wait on each other instead of deadlocking (an activity moves only into the session locked by
     * its own update). Answers which of the listed ones were found, in one row: a session may hold
     * many activities, none of which the server needs to read.
     */
    const lockActivities = Effect.fnUntraced(
      function*(sessionIds: ReadonlyArray<number>, listed: ReadonlyArray<number>) {
        const listedIds = int8Array(listed)
        const [row] = yield* sql<{ found: ReadonlyArray<string> }>`SELECT
            COALESCE(array_agg(id::text) FILTER (WHERE id = ANY(${listedIds}::bigint[])), '{}') AS found
          FROM (SELECT id FROM activities
            WHERE id = ANY(${listedIds}::bigint[]) OR session_id = ANY(${int8Array(sessionIds)}::bigint[])
            ORDER BY id FOR UPDATE) locked`
        return new Set(row!.found.map(Number))
      }
    )

    /**
     * An update's write, in its transaction, its session locked (and read as it was, `previous`):
     * every change, its event and the session as written in one statement, which names the
     * request's user to the audit trail itself. Without `checked`, it assumes the listed athletes
     * and activities exist, as a create does: the athletes' foreign key and the count of activities
     * moved refuse an unknown one (`ReferencesRefused`), nothing kept, and the update is made again
     * the checked way.
     */
    const writeUpdate = Effect.fnUntraced(
      function*(id: SessionId, input: SessionUpdate, previous: Schema.Schema.Type<typeof factsOf>) {
        const { athleteIds } = input
        const lists = boundLists(input)
        // What a session books follows its duree and athletes: its bookings go in the write's
        // statement, which says whether it held any; a booked session (one written through /planning,
        // or any with SCHEDULE_SEED_REFUSES_CONFLICTS) is then booked again.
        const { seedRefusesConflicts, timeZone } = yield* ScheduleSettings
        const rebook = input.duree !== undefined || athleteIds !== undefined
        // Every accepted edit is told, even one that leaves the values as they were (decision 0283):
        // core's event, built from the session as it was and the edit (a seed's update never moves
        // its creneau), written by the write's own statement with its deliveries and notices.
        const changed = sessionChanged(
          { ...previous, id, duree: input.duree !== undefined ? input.duree : previous.duree },
          previous
        )
        // Every change, its event and the session as written in one statement.
        // An occurrence whose values change is an exception of its series, as one changed through
        // /planning: a later change of the series leaves it as it is.
        const exception = sql.literal("overridden = overridden OR series_id IS NOT NULL")
        const parts = [
          input.duree !== undefined
            ? sql`written AS (UPDATE sessions SET duree = ${input.duree}, ${exception} WHERE id = ${id} RETURNING *)`
            : athleteIds !== undefined
            ? sql`written AS (UPDATE sessions SET ${exception} WHERE id = ${id} RETURNING *)`
            : sql`written AS (SELECT * FROM sessions WHERE id = ${id})`,
          ...(lists.athleteIds === undefined
            ? []
            : [removeOtherAthletes(id, lists.athleteIds), addAthletes(lists.athleteIds)]),
          ...(lists.activiteIds === undefined
            ? []
            : [detachOtherActivities(id, lists.activiteIds), moveActivities(lists.activiteIds)]),
          ...(rebook
            ? [
              sql`unbooked_coach AS (DELETE FROM coach_bookings WHERE session_id = ${id} RETURNING 1)`,
              sql`unbooked_athletes AS (DELETE FROM athlete_bookings WHERE session_id = ${id} RETURNING 1)`
            ]
            : []),
          ...(yield* eventsOfWritten(sql, [changed], [{ athleteIds }]))
        ]
        const written = sessionsFrom("written", lists)
        const moved = lists.activiteIds === undefined
          ? sql.literal("0")
          : sql.literal("(SELECT count(*)::int FROM moved)")
        const rows = yield* sql<Record<string, unknown>>`WITH ${sql.csv(parts)} SELECT q.*,
          ${
          rebook
            ? sql`EXISTS (SELECT 1 FROM unbooked_coach) OR EXISTS (SELECT 1 FROM unbooked_athletes)`
            : sql`false`
        } AS held, ${moved} AS "movedActivities"
          FROM (${written}) q ${yield* namingTheActor(sql)}`
        const { held, movedActivities, ...row } = rows[0]!
        if (movedActivities !== (lists.activiteIds?.length ?? 0)) return yield* new ReferencesRefused()
        if (rebook && (seedRefusesConflicts === true || held === true)) {
          const skipped = yield* bookSessions(sql, timeZone, [id])
          if (skipped && seedRefusesConflicts === true) {
            return yield* new ScheduleConflict({ sessionIds: yield* sessionsMet(sql, timeZone, [id]) })
          }
        }
        return yield* Effect.sync(() => sessionFromRow(row))
      },
      onForeignKeyViolation({ session_athletes_athlete_id_fkey: () => new ReferencesRefused() })
    )

    /**
     * An update in one transaction: the session locked (and read as it was, for its event), the
     * activities it lists or holds locked after it (`lockActivities`), then `writeUpdate`. With
     * `checked`, the lock's statement also checks and locks the listed athletes, and the listed
     * activities are checked against those locked, so that an unknown one is named.
     */
    const updateOnce = Effect.fnUntraced(
      function*(id: SessionId, input: SessionUpdate, checked: boolean) {
        const { activiteIds, athleteIds } = input
        // The session locked for the write, in one statement that also reads what the session's
        // event tells of it as it was: locked, it stays so until the write.
        const references = checked ? [athletesNamed(athleteIds ?? [])] : []
        const { rows: [before], unknown: [missing, ...unknown] } = yield* unknownIdsAndRows(sql, [
          { table: "sessions", ids: [id], lock: "FOR UPDATE", answer: factsColumns },
          ...references
        ])
        if (missing!.length > 0) return yield* new EntityNotFound({ entity: "Session", id })
        yield* failOnUnknown(references, unknown)
        if (activiteIds !== undefined) {
          const found = yield* lockActivities([id], activiteIds)
          if (checked) {
            yield* failOnUnknown([activitiesNamed(activiteIds)], [
              [...new Set(activiteIds)].filter((activity) => !found.has(activity)).sort((a, b) => a - b)
            ])
          }
        }
        return yield* writeUpdate(id, input, yield* Effect.sync(() => factsFromRow(before![0]!)))
      },
      transaction(sql, { actorNamedByTheWrite: true })
    )

    /**
     * The updates of one turn (decision 0323) in one transaction: their sessions locked in one
     * statement, in the order of their ids (so that two such transactions cannot wait on each
     * other's sessions), each read as it was, and the activities of those listing activities
     * (`lockActivities`); then each update's own statement (`writeUpdate`) in
     * the order asked, under its own request's user, an update of a session updated before it in
     * the turn starting from what that one left. A session not found answers its own update 404.
     * Any failure rolls back every update of the turn; a refusal by the server (an unknown athlete
     * or activity) sends each again alone, so that it is only its own update's failure (named the
     * checked way); any other failure is every update's, never sent again (`gatheredPerTurn`).
     */
    const sendUpdates = Effect.fnUntraced(
      function*(asks: ReadonlyArray<ActorAsk<{ readonly id: SessionId; readonly input: SessionUpdate }>>) {
        if (asks.length === 1) {
          const [{ actor, ask }] = asks as readonly [
            ActorAsk<{ readonly id: SessionId; readonly input: SessionUpdate }>
          ]
          // A session not found is its own update's answer, as in a turn of several; anything else fails.
          return [
            yield* updateOnce(ask.id, ask.input, false).pipe(
              Effect.map(Result.succeed),
              Effect.catchTag("EntityNotFound", (notFound) => Effect.succeed(Result.fail(notFound))),
              Effect.provideService(AuditActor, actor)
            )
          ]
        }
        return yield* transaction(sql, { actorNamedByTheWrite: true })(Effect.gen(function*() {
          const rows = yield* sql<Record<string, unknown>>`SELECT t.id, ${sql.literal(factsColumns)}
            FROM sessions t WHERE t.id = ANY(${int8Array(asks.map(({ ask }) => ask.id))}::bigint[])
            ORDER BY t.id FOR UPDATE`
          const facts = new Map<number, Schema.Schema.Type<typeof factsOf>>()
          for (const row of rows) facts.set(Number(row["id"]), factsFromRow(row))
          const moving = asks.filter(({ ask }) => ask.input.activiteIds !== undefined && facts.has(ask.id))
          if (moving.length > 0) {
            yield* lockActivities(moving.map(({ ask }) => ask.id), moving.flatMap(({ ask }) => ask.input.activiteIds!))
          }
          const answers: Array<Result.Result<Session, EntityNotFound>> = []
          for (const { actor, ask } of asks) {
            const previous = facts.get(ask.id)
            if (previous === undefined) {
              answers.push(Result.fail(new EntityNotFound({ entity: "Session", id: ask.id })))
              continue
            }
            const written = yield* Effect.provideService(writeUpdate(ask.id, ask.input, previous), AuditActor, actor)
            facts.set(ask.id, { ...previous, duree: written.duree })
            answers.push(Result.succeed(written))
          }
          return answers
        }))
      }
    )
    const updateGathered = gatheredPerTurn({
      sql,
      sendMany: sendUpdates,
      keyOf: () => "sessions",
      // A statement per update: a few per transaction, the others of the turn in transactions beside it.
      maxAsks: updatesPerTransaction,
      eachAloneWhen: refusedByServer((error) => error._tag === "ReferencesRefused")
    })

    const update = traced("SessionRepository.update")(
      function*(id: SessionId, input: SessionUpdate) {
        // SCHEDULE_SEED_REFUSES_CONFLICTS: an update refused for its bookings must roll back alone.
        const { seedRefusesConflicts } = yield* ScheduleSettings
        const first = seedRefusesConflicts === true
          ? updateOnce(id, input, false)
          : Effect.flatMap(updateGathered({ ask: { id, input }, actor: yield* AuditActor }), Effect.fromResult)
        return yield* first.pipe(
          Effect.catchTag("ReferencesRefused", () =>
            updateOnce(id, input, true).pipe(
              Effect.catchTag("ReferencesRefused", () => Effect.die(new Error("A checked reference was refused")))
            ))
        )
      },
      dieOnInfrastructureError
    )

    const remove = traced("SessionRepository.delete")(
      function*(id: SessionId) {
        // Its activities and memberships go by ON DELETE CASCADE, in the same statement.
        // RETURNING reads the statement's snapshot: the memberships are still there for the event.
        const deleted = yield* sql<SessionFacts & { groupe: string | null; athleteIds: ReadonlyArray<number> }>`DELETE
        FROM sessions s WHERE s.id = ${id}
        RETURNING s.id::float8 AS id, s.name, ${sql.literal(creneauColumn)}, s.duree::float8 AS duree,
          s.series_id::float8 AS "seriesId", s.groupe,
          ARRAY(SELECT sa.athlete_id::float8 FROM session_athletes sa WHERE sa.session_id = s.id) AS "athleteIds"`
        if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Session", id })
        yield* writeEvents(sql, [sessionCancelled(deleted[0]!)])
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    // The page order: (creneau, id), a session without a creneau first (as -infinity), so that the
    // keyset condition is one row comparison, which the (creneau, id) index of migration 0012 serves.
    const position = sql.literal(`(COALESCE(s.creneau, '-infinity'::timestamp), s.id)`)
    const pageAfter = traced("SessionRepository.page")(
      function*(query: SessionQuery, after: SessionPosition | undefined, limit: number) {
        const conditions = [sql`TRUE`]
        if (query.from !== undefined) conditions.push(sql`s.creneau >= ${query.from}::timestamp`)
        if (query.to !== undefined) conditions.push(sql`s.creneau < ${query.to}::timestamp`)
        if (query.coachId !== undefined) conditions.push(sql`s.coach_id = ${query.coachId}`)
        if (query.groupe !== undefined) conditions.push(sql`s.groupe = ${query.groupe}`)
        if (query.athleteId !== undefined) {
          conditions.push(
            sql`EXISTS (SELECT 1 FROM session_athletes sa WHERE sa.session_id = s.id AND sa.athlete_id = ${query.athleteId})`
          )
        }
        if (after !== undefined) {
          conditions.push(
            sql`${position} > (COALESCE(${after.creneau}::timestamp, '-infinity'::timestamp), ${after.id}::bigint)`
          )
        }
        const rows = yield* sql<Record<string, unknown>>`${selectSessions} WHERE ${sql.and(conditions)}
          ORDER BY ${position} LIMIT ${limit}`.unprepared
        return yield* sessionsOf(rows)
      },
      dieOnInfrastructureError
    )

    /**
     * The sessions the athletes `athletes` (a subquery of athlete ids) are invited to: one of their
     * athletes, or a member of their group on their day (issue 41; each membership's days cut the
     * group's sessions by `sessions_groupe_idx`).
     */
    const invitedSessions = (athletes: Fragment) =>
      sql`(SELECT sa.session_id FROM session_athletes sa WHERE sa.athlete_id IN (${athletes})
        UNION
        SELECT g_s.id FROM memberships m JOIN groups g ON g.id = m.group_id
          JOIN sessions g_s ON g_s.groupe = g.name AND g_s.creneau >= m.from_date::timestamp
            AND (m.until_date IS NULL OR g_s.creneau < (m.until_date + 1)::timestamp)
        WHERE m.athlete_id IN (${athletes}))`

    const inScope = (scope: FeedScope) =>
      scope.kind === "athlete"
        ? sql`s.creneau IS NOT NULL AND s.id IN ${invitedSessions(sql`SELECT ${scope.athleteId}::bigint`)}`
        : scope.kind === "coach"
        ? sql`s.creneau IS NOT NULL AND s.coach_id = ${scope.coachId}`
        : scope.kind === "guardian"
        ? sql`s.creneau IS NOT NULL AND s.id IN ${
          invitedSessions(sql`SELECT gd.athlete_id FROM guardianships gd WHERE gd.user_id = ${scope.userId}`)
        }`
        : sql`s.creneau IS NOT NULL AND s.groupe = ${scope.groupe}`

    const feedSessions = traced("SessionRepository.feedSessions")(function*(scope: FeedScope) {
      const rows = yield* sql<Record<string, unknown>>`SELECT s.id, ${sql.literal(valueColumns)},
        ${storedAthletes} AS "athleteIds", ${storedActivities} AS "activiteIds", s.revision,
        s.series_id::float8 AS "seriesId", to_char(s.occurrence_start, 'YYYY-MM-DD"T"HH24:MI:SS') AS "occurrenceStart"
        FROM sessions s WHERE ${inScope(scope)} ORDER BY s.creneau, s.id`.unprepared
      return yield* Effect.sync(() =>
        rows.map((row): FeedSession => ({
          session: sessionFromRow(row),
          revision: Number(row["revision"]),
          seriesId: row["seriesId"] === null ? null : SeriesId.make(Number(row["seriesId"])),
          occurrenceStart: (row["occurrenceStart"] ?? null) as LocalDateTime | null
        }))
      )
    }, dieOnInfrastructureError)

    const feedVersion = traced("SessionRepository.feedVersion")(function*(scope: FeedScope) {
      // A series' own change marker is in its occurrences' entries: a feed renders a series from its row.
      // And the cancellations of the scope's series: a cancelled occurrence is in the feed
      // (STATUS:CANCELLED), also where its session was not in the scope.
      const [row] = yield* sql<{ readonly version: string }>`SELECT count(*) || '-' ||
        md5(COALESCE(string_agg(s.id || ':' || s.change || ':' || COALESCE(r.id || '.' || r.change || '.' ||
          s.occurrence_start, ''), ',' ORDER BY s.id), '')) || '-' ||
        (SELECT md5(COALESCE(string_agg(c.series_id || ':' || c.occurrence_start || ':' || c.sequence, ','
          ORDER BY c.series_id, c.occurrence_start), ''))
          FROM series_cancellations c
          WHERE c.series_id IN (SELECT s.series_id FROM sessions s WHERE ${inScope(scope)})) AS version
        FROM sessions s LEFT JOIN series r ON r.id = s.series_id WHERE ${inScope(scope)}`.unprepared
      return row!.version
    }, dieOnInfrastructureError)

    const summaries = traced("SessionRepository.summaries")(function*() {
      return yield* listSummaries
    }, dieOnInfrastructureError)

    // The sessions of the athletes asked for in one turn with the same range, each row with its athlete.
    const summariesOfAthletes = readsGathered({
      sql,
      readMany: (athleteIds, range: CreneauRange) => {
        const conditions = [sql`sa.athlete_id = ANY(${int8Array(athleteIds)}::bigint[])`]
        if (range.after !== undefined) conditions.push(sql`s.creneau > ${range.after}`)
        if (range.before !== undefined) conditions.push(sql`s.creneau < ${range.before}`)
        // Unprepared (docs/DECISIONS.md "Plans that depend on the values"): the best plan depends on
        // how many sessions the range holds, which a generic plan cannot know.
        return Effect.map(
          sql<Record<string, unknown>>`SELECT sa.athlete_id AS "of", s.id, s.name FROM sessions s
          JOIN session_athletes sa ON sa.session_id = s.id
          WHERE ${sql.and(conditions)} ORDER BY s.id`.unprepared,
          readRows(ofRow(sessionSummaryFromRow))
        )
      },
      idOf: (row) => row.of,
      answerOf: (rows) => rows.map((row) => row.value),
      keyOf: (range) => `${range.after ?? ""} ${range.before ?? ""}`
    })
    const summariesOfAthlete = traced("SessionRepository.summariesOfAthlete")(
      function*(athleteId: AthleteId, range: CreneauRange) {
        return yield* summariesOfAthletes(athleteId, range)
      },
      dieOnInfrastructureError
    )

    // The activities of the sessions asked for in one turn, each row with its session.
    const activitySummariesOf = readsGathered({
      sql,
      readMany: (sessionIds) =>
        Effect.map(
          sql`SELECT session_id AS "of", id, name FROM activities WHERE session_id = ANY(${
            int8Array(sessionIds)
          }::bigint[]) ORDER BY id`,
          readRows(ofRow(activitySummaryFromRow))
        ),
      idOf: (row) => row.of,
      answerOf: (rows) => rows.map((row) => row.value),
      keyOf: () => ""
    })
    const activitySummaries = traced("SessionRepository.activitySummaries")(function*(sessionId: SessionId) {
      return yield* activitySummariesOf(sessionId, undefined)
    }, dieOnInfrastructureError)

    return SessionRepository.of({
      create,
      findById,
      list,
      stream,
      update,
      delete: remove,
      page: pageAfter,
      feedSessions,
      feedVersion,
      summaries,
      summariesOfAthlete,
      activitySummaries
    })
  })
)
