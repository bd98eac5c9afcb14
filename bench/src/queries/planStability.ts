/** What a plan cost, in the two measures the check compares (rowsFetched.ts, pagesTouched.ts). */
export interface PlanCost {
  readonly rows: number
  readonly pages: number
}

/**
 * When a statement counts as plan-stable: its generic plan fetches at most `factor` times the rows
 * of its custom plan, plus `slack`, and touches at most `factor` times its pages, plus `slack`. The
 * same plan fetches the same rows and touches the same pages, so any margin is only for a different
 * plan of the same shape (a bitmap scan instead of an index scan, another join order over the same
 * few rows); the slack keeps a difference of a handful (1 row against 3, 2 pages against 5) from
 * counting. A generic plan that walks a range or a table instead of the few rows its values select
 * costs many times more, far beyond twice.
 */
export const planStability = { factor: 2, slack: 10 } as const

const within = (custom: number, generic: number) => generic <= planStability.factor * custom + planStability.slack

export const isPlanStable = (custom: PlanCost, generic: PlanCost): boolean =>
  within(custom.rows, generic.rows) && within(custom.pages, generic.pages)

/**
 * `pass`: the generic plan costs no more than the custom plan allows; `FAIL`: it costs more, for a
 * prepared statement, which PostgreSQL may run with that plan after five executions; `flagged`: it
 * costs more, but the statement is sent unprepared (the unnamed statement, or a simple query),
 * which PostgreSQL plans with its values on every call, so the generic plan never runs;
 * `unchecked`: the statement could not be replayed, which fails the check too, or a new statement
 * would escape it.
 */
export type PlanVerdict = "pass" | "FAIL" | "flagged" | "unchecked"

export const planVerdict = (
  sent: "named" | "unnamed" | "simple",
  custom: PlanCost,
  generic: PlanCost
): PlanVerdict => isPlanStable(custom, generic) ? "pass" : sent === "named" ? "FAIL" : "flagged"
