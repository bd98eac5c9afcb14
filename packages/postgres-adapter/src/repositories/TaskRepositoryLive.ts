import { type TaskCreate, type TaskId, TaskRepository } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { TaskFromRow } from "../rows/TaskRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"

export const TaskRepositoryLive = Layer.effect(
  TaskRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeTask = Schema.decodeUnknownEffect(TaskFromRow)
    const taskColumns = sql.literal(`id, title, description, created_at AS "createdAt"`)

    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: TaskFromRow,
      execute: () => sql`SELECT ${taskColumns} FROM tasks ORDER BY insertion_order`
    })

    const deleteReturning = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: TaskFromRow,
      execute: (id) => sql`DELETE FROM tasks WHERE id = ${id} RETURNING ${taskColumns}`
    })

    const create = Effect.fn("TaskRepository.create")(function*(input: TaskCreate) {
      const [row] = yield* sql`INSERT INTO tasks ${sql.insert({ title: input.title, description: input.description })}
        RETURNING ${taskColumns}`
      return yield* decodeTask(row)
    }, dieOnInfrastructureError)

    const list = Effect.fn("TaskRepository.list")(function*() {
      return yield* listAll(undefined)
    }, dieOnInfrastructureError)

    const remove = Effect.fn("TaskRepository.delete")(function*(id: TaskId) {
      return yield* deleteReturning(id)
    }, dieOnInfrastructureError)

    return TaskRepository.of({ create, list, delete: remove })
  })
)
