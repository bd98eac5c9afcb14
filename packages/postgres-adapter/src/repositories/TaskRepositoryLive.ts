import { traced } from "@club/core"
import { type TaskCreate, type TaskId, TaskRepository } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { TaskFromRow, taskFromRow } from "../rows/TaskRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"

export const TaskRepositoryLive = Layer.effect(
  TaskRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeTask = Schema.decodeUnknownEffect(TaskFromRow)
    const taskColumns = sql.literal(`id, title, description, created_at AS "createdAt"`)

    // Every task at once: rows read in bulk skip the per-row Schema decode (rows/TaskRow.ts).
    const listAll = Effect.flatMap(
      sql<Record<string, unknown>>`SELECT ${taskColumns} FROM tasks ORDER BY insertion_order`,
      (rows) => Effect.sync(() => rows.map(taskFromRow))
    )

    const deleteReturning = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: TaskFromRow,
      execute: (id) => sql`DELETE FROM tasks WHERE id = ${id} RETURNING ${taskColumns}`
    })

    const create = traced("TaskRepository.create")(function*(input: TaskCreate) {
      const [row] = yield* sql`INSERT INTO tasks ${sql.insert({ title: input.title, description: input.description })}
        RETURNING ${taskColumns}`
      return yield* decodeTask(row)
    }, dieOnInfrastructureError)

    const list = traced("TaskRepository.list")(function*() {
      return yield* listAll
    }, dieOnInfrastructureError)

    const remove = traced("TaskRepository.delete")(function*(id: TaskId) {
      return yield* deleteReturning(id)
    }, dieOnInfrastructureError)

    return TaskRepository.of({ create, list, delete: remove })
  })
)
