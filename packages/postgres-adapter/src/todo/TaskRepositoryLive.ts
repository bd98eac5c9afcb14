import { traced } from "@club/core"
import { Task, type TaskCreate, type TaskId, TaskRepository } from "@club/core"
import { Array as Arr, Effect, Layer, Option, Order } from "effect"
import { SqlClient } from "effect/sql"
import { readRows } from "../shared/rowReader.ts"
import { taskFromRow } from "./taskRow.ts"
import { selectListOf } from "../shared/snakeCase.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { gatheredPerTurn } from "../shared/gatheredPerTurn.ts"
import { readsShared } from "../shared/readsGathered.ts"
import { refusedByServer } from "../shared/refusedByServer.ts"
import { auditedWrite, autocommitWrite } from "../shared/transaction.ts"

const byInsertionOrder = Order.mapInput(
  Order.BigInt,
  (row: Record<string, unknown>) => BigInt(row["order"] as string | number | bigint)
)

export const TaskRepositoryLive = Layer.effect(
  TaskRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const taskColumns = sql.literal(selectListOf(Object.keys(Task.fields)))

    const all = readsShared(
      sql,
      Effect.map(sql`SELECT ${taskColumns} FROM tasks ORDER BY insertion_order`, readRows(taskFromRow))
    )

    // The creates of one turn are one INSERT, in the order they were asked, each answered with its
    // row (by insertion order, which the rows take in the order they are inserted). No task is
    // refused alone (its text was checked at the edge), and were one ever refused by the server,
    // each would be written again alone. It commits by itself: a connection lost once it was sent
    // leaves its outcome unknown (`autocommitWrite`), and it is not sent again.
    const insertGathered = gatheredPerTurn({
      sql,
      sendMany: (inputs: ReadonlyArray<TaskCreate>) =>
        Effect.map(
          sql<Record<string, unknown>>`INSERT INTO tasks (title, description)
            SELECT title, description FROM unnest(${inputs.map((input) => input.title)}::text[], ${
            inputs.map((input) => input.description)
          }::text[]) WITH ORDINALITY AS t(title, description, n) ORDER BY n
            RETURNING ${taskColumns}, insertion_order AS "order"`,
          (rows) => Arr.sort(rows, byInsertionOrder).map(taskFromRow)
        ).pipe(autocommitWrite),
      keyOf: () => "",
      eachAloneWhen: refusedByServer()
    })

    const create = traced("TaskRepository.create")(function*(input: TaskCreate) {
      return yield* insertGathered(input)
    }, dieOnInfrastructureError)

    const list = traced("TaskRepository.list")(function*() {
      return yield* all
    }, dieOnInfrastructureError)

    const remove = traced("TaskRepository.delete")(function*(id: TaskId) {
      const [row] = yield* auditedWrite(sql)(sql`DELETE FROM tasks WHERE id = ${id} RETURNING ${taskColumns}`)
      return Option.map(Option.fromNullishOr(row), taskFromRow)
    }, dieOnInfrastructureError)

    return TaskRepository.of({ create, list, delete: remove })
  })
)
