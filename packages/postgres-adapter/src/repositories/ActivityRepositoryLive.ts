import { traced } from "@club/core"
import { type ActivityId, type ActivityInput, ActivityRepository, EntityNotFound } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { ActivityFromRow, activityFromRow } from "../rows/ActivityRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { requireKnownIds } from "../sql/requireKnownIds.ts"
import { transaction } from "../sql/transaction.ts"

export const ActivityRepositoryLive = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeActivity = (row: Record<string, unknown> | undefined) => Effect.sync(() => activityFromRow(row ?? {}))

    const activityColumns = sql.literal(
      `id, name, theme, duree, data_activite AS "dataActivite", session_id AS "sessionId"`
    )

    const findOne = SqlSchema.findOneOption({
      Request: Schema.Number,
      Result: ActivityFromRow,
      execute: (id) => sql`SELECT ${activityColumns} FROM activities WHERE id = ${id}`
    })

    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: ActivityFromRow,
      execute: () => sql`SELECT ${activityColumns} FROM activities ORDER BY id`
    })

    const listWithTheme = SqlSchema.findAll({
      Request: Schema.String,
      Result: ActivityFromRow,
      execute: (theme) => sql`SELECT ${activityColumns} FROM activities WHERE theme = ${theme} ORDER BY id`
    })

    const columnsOf = (input: ActivityInput) => ({
      name: input.name,
      theme: input.theme,
      duree: input.duree,
      data_activite: input.dataActivite,
      session_id: input.sessionId
    })

    /** The session stays locked until the transaction ends, so it cannot be deleted under the write. */
    const requireSession = (input: ActivityInput) =>
      requireKnownIds(sql, { field: "sessionId", entity: "Session", table: "sessions", ids: [input.sessionId] })

    const create = traced("ActivityRepository.create")(function*(input: ActivityInput) {
      return yield* transaction(sql)(Effect.gen(function*() {
        yield* requireSession(input)
        const [row] = yield* sql`INSERT INTO activities ${sql.insert(columnsOf(input))} RETURNING ${activityColumns}`
        return yield* decodeActivity(row)
      }))
    }, dieOnInfrastructureError)

    const findById = traced("ActivityRepository.findById")(function*(id: ActivityId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const list = traced("ActivityRepository.list")(function*() {
      return yield* listAll(undefined)
    }, dieOnInfrastructureError)

    const listByTheme = traced("ActivityRepository.listByTheme")(function*(theme: string) {
      return yield* listWithTheme(theme)
    }, dieOnInfrastructureError)

    const update = traced("ActivityRepository.update")(function*(id: ActivityId, input: ActivityInput) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const locked = yield* sql`SELECT id FROM activities WHERE id = ${id} FOR UPDATE`
        if (locked.length === 0) return yield* new EntityNotFound({ entity: "Activity", id })
        yield* requireSession(input)
        const [row] = yield* sql`UPDATE activities SET ${sql.update(columnsOf(input))}
          WHERE id = ${id} RETURNING ${activityColumns}`
        return yield* decodeActivity(row)
      }))
    }, dieOnInfrastructureError)

    const remove = traced("ActivityRepository.delete")(function*(id: ActivityId) {
      const deleted = yield* sql`DELETE FROM activities WHERE id = ${id} RETURNING id`
      if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Activity", id })
    }, dieOnInfrastructureError)

    return ActivityRepository.of({ create, findById, list, listByTheme, update, delete: remove })
  })
)
