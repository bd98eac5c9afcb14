import { traced } from "@club/core"
import { Task, type TaskCreate, type TaskId, TaskRepository } from "@club/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { readRows } from "../rows/rowReader.ts"
import { taskFromRow } from "../rows/TaskRow.ts"
import { selectListOf } from "../sql/snakeCase.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { readsShared } from "../sql/readsGathered.ts"

export const TaskRepositoryLive = Layer.effect(
  TaskRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const taskColumns = sql.literal(selectListOf(Object.keys(Task.fields)))

    const all = readsShared(
      sql,
      Effect.map(sql`SELECT ${taskColumns} FROM tasks ORDER BY insertion_order`, readRows(taskFromRow))
    )

    const create = traced("TaskRepository.create")(function*(input: TaskCreate) {
      const [row] = yield* sql`INSERT INTO tasks ${sql.insert({ title: input.title, description: input.description })}
        RETURNING ${taskColumns}`
      return taskFromRow(row!)
    }, dieOnInfrastructureError)

    const list = traced("TaskRepository.list")(function*() {
      return yield* all
    }, dieOnInfrastructureError)

    const remove = traced("TaskRepository.delete")(function*(id: TaskId) {
      const [row] = yield* sql`DELETE FROM tasks WHERE id = ${id} RETURNING ${taskColumns}`
      return Option.map(Option.fromNullishOr(row), taskFromRow)
    }, dieOnInfrastructureError)

    return TaskRepository.of({ create, list, delete: remove })
  })
)
