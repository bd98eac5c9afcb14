import { AuditActor, traced } from "@club/core"
import {
  Activity,
  activityEvent,
  type ActivityId,
  type ActivityWrite,
  ActivityRepository,
  EntityNotFound,
  UnknownReferences
} from "@club/core"
import { Array as Arr, Effect, Layer, Order } from "effect"
import { SqlClient } from "effect/sql"
import { activityFromRow } from "./activityRow.ts"
import { readRows } from "../shared/rowReader.ts"
import { byColumn, selectListOf } from "../shared/snakeCase.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { type ActorAsk, gatheredPerTurn, rowActorsOf } from "../shared/gatheredPerTurn.ts"
import { int8Array } from "../shared/int8Array.ts"
import { onForeignKeyViolation } from "../shared/onForeignKeyViolation.ts"
import { readsById, readsShared } from "../shared/readsGathered.ts"
import { refusedByServer } from "../shared/refusedByServer.ts"
import { requireKnownIds } from "../shared/requireKnownIds.ts"
import { rowsAsJson } from "../shared/rowsAsJson.ts"
import { autocommitWrite, inCallersTransaction, transaction } from "../shared/transaction.ts"
import { eventsOfInserted, writeEvents } from "../webhooks/outbox.ts"

/** The most labels (`dataActivite`) an activity create may hold and be gathered with others. */
export const maxLabelsGathered = 16

export const ActivityRepositoryLive = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const byId = Order.mapInput(Order.Number, (row: Record<string, unknown>) => Number(row["id"]))
    const decodeActivity = (row: Record<string, unknown> | undefined) => Effect.sync(() => activityFromRow(row ?? {}))
    const activitiesOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
      Effect.sync(() => readRows(activityFromRow)(rows))

    // Each field of core's Activity from its column, under its field's name.
    const activityColumns = sql.literal(selectListOf(Object.keys(Activity.fields)))

    const findOne = readsById(
      sql,
      (ids) =>
        Effect.flatMap(
          sql<Record<string, unknown>>`SELECT ${activityColumns} FROM activities WHERE id = ANY(${
            int8Array(ids)
          }::bigint[])`,
          activitiesOf
        )
    )

    const listAll = readsShared(
      sql,
      Effect.flatMap(sql<Record<string, unknown>>`SELECT ${activityColumns} FROM activities ORDER BY id`, activitiesOf)
    )

    const listWithTheme = (theme: string) =>
      Effect.flatMap(
        sql<Record<string, unknown>>`SELECT ${activityColumns} FROM activities WHERE theme = ${theme} ORDER BY id`,
        activitiesOf
      )

    /** The input's values and session, each in its column. */
    const columnsOf = (input: ActivityWrite) => byColumn({ ...input })

    /** The creates' columns as one JSON array, their text as stored (`rowsAsJson`). */
    const batchJson = (inputs: ReadonlyArray<ActivityWrite>) => rowsAsJson(inputs.map(columnsOf))

    /** The session stays locked until the transaction ends, so it cannot be deleted under the write. */
    const requireSession = (input: ActivityWrite) =>
      requireKnownIds(sql, { field: "sessionId", entity: "Session", table: "sessions", ids: [input.sessionId] })

    // The creates of one turn are one INSERT, their `activityCreated` events and webhook deliveries
    // in the same statement, which commits by itself (decision 0318): the foreign key checks each
    // session and locks it while the rows are written; the database refuses a row that could not
    // be read back (migration 0040), so a statement that commits answers. Each row's audit entry
    // names the user of the request that asked it: the INSERT's first step sets
    // `club.audit_row_actors`, one actor per row in the rows' order (decision 0316). A refusal by
    // the server (an unknown session, data it refuses) of several creates sends each again alone,
    // so that it is only its own create's failure; any other failure is every create's (it may have
    // been kept: a connection lost once the statement was sent is `WriteOutcomeUnknown`, never sent
    // again). The ids are drawn in the order the rows are inserted, which is the order asked. In a
    // caller's transaction (an idempotency key's) the create is a savepoint, so that a refused
    // session does not abort the caller's transaction.
    const sendCreates = Effect.fnUntraced(function*(asks: ReadonlyArray<ActorAsk<ActivityWrite>>) {
      const inputs = asks.map(({ ask }) => ask)
      // Core's event of each create (the outbox stores its text as the row's); the database puts in the id it draws.
      const events = inputs.map((input) =>
        activityEvent("activityCreated", {
          id: 0,
          name: input.name,
          theme: input.theme,
          duree: input.duree,
          sessionId: input.sessionId
        })
      )
      const outbox = yield* eventsOfInserted(sql, events, { idKey: "activityId" })
      const statement = sql<Record<string, unknown>>`WITH actor AS MATERIALIZED (
            SELECT set_config('club.audit_row_actors', ${
        rowActorsOf({ activities: asks.map(({ actor }) => actor) })
      }, true)
          ),
          inserted AS (INSERT INTO activities (name, theme, duree, data_activite, session_id)
            SELECT asked.name, asked.theme, asked.duree, asked.data_activite, asked.session_id
            FROM actor, jsonb_populate_recordset(NULL::activities, ${batchJson(inputs)}::jsonb)
            WITH ORDINALITY AS asked ORDER BY asked.ordinality
            RETURNING ${activityColumns}),
          ${sql.csv(outbox)}
          SELECT * FROM inserted`.pipe(
        Effect.flatMap((rows) => activitiesOf(Arr.sort(rows, byId))),
        onForeignKeyViolation({
          activities_session_id_fkey: () =>
            new UnknownReferences({
              field: "sessionId",
              entity: "Session",
              ids: inputs.map((input) => input.sessionId)
            })
        })
      )
      return yield* ((yield* inCallersTransaction(sql))
        ? transaction(sql, { actorNamedByTheWrite: true })(statement)
        : Effect.uninterruptible(autocommitWrite(sql)(statement)))
    })
    const insertGathered = gatheredPerTurn({
      sql,
      sendMany: sendCreates,
      keyOf: () => "activities",
      // An activity of many labels (up to a request body's worth) is its own statement, so one
      // statement's parameter stays a few megabytes however many such creates come at once.
      alone: ({ ask }) => ask.dataActivite.length > maxLabelsGathered,
      eachAloneWhen: refusedByServer((error) => error._tag === "UnknownReferences")
    })

    const create = traced("ActivityRepository.create")(function*(input: ActivityWrite) {
      return yield* insertGathered({ ask: input, actor: yield* AuditActor })
    }, dieOnInfrastructureError)

    const findById = traced("ActivityRepository.findById")(function*(id: ActivityId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const list = traced("ActivityRepository.list")(function*() {
      return yield* listAll
    }, dieOnInfrastructureError)

    const listByTheme = traced("ActivityRepository.listByTheme")(function*(theme: string) {
      return yield* listWithTheme(theme)
    }, dieOnInfrastructureError)

    const update = traced("ActivityRepository.update")(
      function*(id: ActivityId, input: ActivityWrite) {
        const locked = yield* sql`SELECT id FROM activities WHERE id = ${id} FOR UPDATE`
        if (locked.length === 0) return yield* new EntityNotFound({ entity: "Activity", id })
        yield* requireSession(input)
        const [row] = yield* sql`UPDATE activities SET ${sql.update(columnsOf(input))}
        WHERE id = ${id} RETURNING ${activityColumns}`
        const updated = yield* decodeActivity(row)
        // Every accepted edit is told, even one that leaves the values as they were (decision 0283).
        yield* writeEvents(sql, [activityEvent("activityChanged", updated)])
        return updated
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    const remove = traced("ActivityRepository.delete")(
      function*(id: ActivityId) {
        const deleted = yield* sql<Record<string, unknown>>`DELETE FROM activities WHERE id = ${id}
        RETURNING ${activityColumns}`
        if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Activity", id })
        yield* writeEvents(sql, [activityEvent("activityDeleted", yield* decodeActivity(deleted[0]))])
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    return ActivityRepository.of({ create, findById, list, listByTheme, update, delete: remove })
  })
)
