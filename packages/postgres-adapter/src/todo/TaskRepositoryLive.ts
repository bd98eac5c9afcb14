import { AuditActor, traced } from "@club/core"
import { Task, type TaskCreate, type TaskId, TaskRepository } from "@club/core"
import { Array as Arr, Effect, Layer, Option, Order } from "effect"
import { SqlClient } from "effect/sql"
import { readRows } from "../shared/rowReader.ts"
import { taskFromRow } from "./taskRow.ts"
import { selectListOf } from "../shared/snakeCase.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { type ActorAsk, gatheredPerTurn, rowActorsOf } from "../shared/gatheredPerTurn.ts"
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
    // row (by insertion order, which the rows take in the order they are inserted). Each creation
    // done for a user names them in the statement itself (decision 0316): its first step sets
    // `club.audit_row_actors` locally, one actor per row in the rows' order, which lasts for the
    // statement's own implicit transaction, and the audit trigger, run at the statement's end,
    // gives each row its own (a creation of the server's own, null, names no one: set all the same,
    // so that no earlier statement's setting in a caller's transaction is read). No task is
    // refused alone (its text was checked at the edge), and were one ever refused by the server,
    // each would be written again alone. It commits by itself: a connection lost once it was sent
    // leaves its outcome unknown (`autocommitWrite`), and it is not sent again.
    const insertGathered = gatheredPerTurn({
      sql,
      sendMany: (asks: ReadonlyArray<ActorAsk<TaskCreate>>) => {
        const titles = asks.map(({ ask }) => ask.title)
        const descriptions = asks.map(({ ask }) => ask.description)
        const rows = sql<Record<string, unknown>>`WITH actor AS MATERIALIZED (
            SELECT set_config('club.audit_row_actors', ${rowActorsOf({ tasks: asks.map(({ actor }) => actor) })}, true)
          )
          INSERT INTO tasks (title, description)
          SELECT t.title, t.description FROM actor, unnest(${titles}::text[], ${descriptions}::text[])
            WITH ORDINALITY AS t(title, description, n) ORDER BY t.n
          RETURNING ${taskColumns}, insertion_order AS "order"`
        return Effect.map(rows, (created) => Arr.sort(created, byInsertionOrder).map(taskFromRow)).pipe(
          autocommitWrite(sql)
        )
      },
      keyOf: () => "tasks",
      eachAloneWhen: refusedByServer()
    })

    const create = traced("TaskRepository.create")(function*(input: TaskCreate) {
      return yield* insertGathered({ ask: input, actor: yield* AuditActor })
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
