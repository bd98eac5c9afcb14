import { traced } from "@club/core"
import {
  Activity,
  type ActivityId,
  type ActivityWrite,
  ActivityRepository,
  EntityNotFound,
  UnknownReferences
} from "@club/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { activityFromRow } from "../rows/ActivityRow.ts"
import { readRows } from "../rows/rowReader.ts"
import { byColumn, selectListOf } from "../sql/snakeCase.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { int8Array } from "../sql/int8Array.ts"
import { onForeignKeyViolation } from "../sql/onForeignKeyViolation.ts"
import { readsById, readsShared } from "../sql/readsGathered.ts"
import { requireKnownIds } from "../sql/requireKnownIds.ts"
import { transaction } from "../sql/transaction.ts"

export const ActivityRepositoryLive = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
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

    /** The session stays locked until the transaction ends, so it cannot be deleted under the write. */
    const requireSession = (input: ActivityWrite) =>
      requireKnownIds(sql, { field: "sessionId", entity: "Session", table: "sessions", ids: [input.sessionId] })

    // The foreign key checks the session and locks it while the row is written, in the insert
    // itself; the transaction is for the decode of the stored row (a create is one transaction
    // with the reading back of its row).
    const create = traced("ActivityRepository.create")(
      function*(input: ActivityWrite) {
        const [row] = yield* sql`INSERT INTO activities ${sql.insert(columnsOf(input))} RETURNING ${activityColumns}`
          .pipe(onForeignKeyViolation({
            activities_session_id_fkey: () =>
              new UnknownReferences({ field: "sessionId", entity: "Session", ids: [input.sessionId] })
          }))
        return yield* decodeActivity(row)
      },
      transaction(sql),
      dieOnInfrastructureError
    )

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
        return yield* decodeActivity(row)
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    const remove = traced("ActivityRepository.delete")(function*(id: ActivityId) {
      const deleted = yield* sql`DELETE FROM activities WHERE id = ${id} RETURNING id`
      if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Activity", id })
    }, dieOnInfrastructureError)

    return ActivityRepository.of({ create, findById, list, listByTheme, update, delete: remove })
  })
)
