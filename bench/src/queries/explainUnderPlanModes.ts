import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { parameterText, sqlLiteral } from "./parameterLiteral.ts"
import { type BufferCounts, pagesTouched } from "./pagesTouched.ts"
import type { PlanCost } from "./planStability.ts"
import { type PlanNode, rowsFetched } from "./rowsFetched.ts"
import type { ExecutedStatement } from "./StatementCounter.ts"

export type PlanModeRows =
  | { readonly custom: PlanCost; readonly generic: PlanCost }
  | { readonly unchecked: string }

/** The JSON of `EXPLAIN (FORMAT JSON)`: one row, one column, holding `[{ "Plan": … }]` (as text or decoded). */
const rootPlan = (rows: ReadonlyArray<Record<string, unknown>>): PlanNode & BufferCounts => {
  const value = Object.values(rows[0] ?? {})[0]
  const explained = (typeof value === "string" ? JSON.parse(value) : value) as ReadonlyArray<
    { Plan: PlanNode & BufferCounts }
  >
  return explained[0]!.Plan
}

/** How PREPARE names a declared type; 0 (undeclared) stays `unknown`, which PostgreSQL infers as Parse does. */
const typeNames = (sql: SqlClient.SqlClient, oids: ReadonlyArray<number>) =>
  Effect.forEach(oids, (oid) =>
    oid === 0
      ? Effect.succeed("unknown")
      : sql.unsafe<{ name: string }>(`SELECT format_type(${Number(oid)}, NULL) AS name`).pipe(
        Effect.map((rows) => rows[0]!.name)
      ))

/**
 * The rows the statement's plan fetches and the pages it touches for the values it was executed with, planned with those
 * values (`force_custom_plan`) and without them (`force_generic_plan`), on `sql`'s one connection.
 * It is prepared with SQL's PREPARE, with the parameter types the client declared (and `unknown`
 * where it declared none), and run by `EXPLAIN (ANALYZE, BUFFERS) EXECUTE` with each value as a string
 * literal, which PostgreSQL casts to the parameter's type. `name` must be unique on the connection.
 */
export const explainUnderPlanModes = (
  sql: SqlClient.SqlClient,
  statement: ExecutedStatement,
  name: string
): Effect.Effect<PlanModeRows, unknown> =>
  Effect.gen(function*() {
    const count = statement.parameters.length
    const oids = Array.from({ length: count }, (_, index) => statement.parameterTypes[index] ?? 0)
    const texts = statement.parameters.map((parameter, index) => parameterText(parameter, oids[index]!))
    const unsupported = texts.find((text) => "unsupported" in text)
    if (unsupported !== undefined && "unsupported" in unsupported) return { unchecked: unsupported.unsupported }
    const literals = texts.map((text) => sqlLiteral("text" in text ? text.text : null))
    const types = yield* typeNames(sql, oids)
    yield* sql.unsafe(`PREPARE ${name}${count === 0 ? "" : ` (${types.join(", ")})`} AS ${statement.text}`)
    const rowsUnder = (mode: "force_custom_plan" | "force_generic_plan") =>
      Effect.gen(function*() {
        yield* sql.unsafe(`SET plan_cache_mode = ${mode}`)
        const explained = yield* sql.unsafe<Record<string, unknown>>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}${count === 0 ? "" : `(${literals.join(", ")})`}`
        )
        const root = rootPlan(explained)
        return { rows: rowsFetched(root), pages: pagesTouched(root) } satisfies PlanCost
      })
    const custom = yield* rowsUnder("force_custom_plan")
    const generic = yield* rowsUnder("force_generic_plan")
    yield* sql.unsafe(`RESET plan_cache_mode`)
    yield* sql.unsafe(`DEALLOCATE ${name}`)
    return { custom, generic }
  })
