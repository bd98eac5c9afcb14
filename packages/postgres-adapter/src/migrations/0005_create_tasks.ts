import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Tasks have UUID ids, and `created_at` may tie (same clock tick, or clocks of several
 * instances); `insertion_order` gives "oldest first" a stable order.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE tasks (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    insertion_order bigint GENERATED ALWAYS AS IDENTITY,
    title text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tasks_insertion_order_unique UNIQUE (insertion_order)
  )`
})
