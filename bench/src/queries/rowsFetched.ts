/**
 * The rows a plan fetched from tables, from `EXPLAIN (ANALYZE, FORMAT JSON)`: over every node that
 * reads a table (scans of the heap or of an index), the rows it returned plus the rows it read and
 * threw away (`Rows Removed by Filter`, `Rows Removed by Index Recheck`), each times the node's
 * loops (EXPLAIN reports both per loop). A plan that walks the wrong index or probes another table
 * once per row fetches more; the rows the statement answers do not change with the plan.
 * Bitmap Index Scans are left out: the Bitmap Heap Scan above them counts the same rows. An index
 * probe that finds nothing counts no row, however many pages it reads: pagesTouched.ts counts those.
 */

export interface PlanNode {
  readonly "Node Type": string
  readonly "Actual Rows"?: number
  readonly "Actual Loops"?: number
  readonly "Rows Removed by Filter"?: number
  readonly "Rows Removed by Index Recheck"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

export const tableScanNodes: ReadonlySet<string> = new Set([
  "Seq Scan",
  "Index Scan",
  "Index Only Scan",
  "Bitmap Heap Scan",
  "Tid Scan",
  "Tid Range Scan",
  "Sample Scan"
])

export const rowsFetched = (node: PlanNode): number => {
  const loops = node["Actual Loops"] ?? 0
  const own = tableScanNodes.has(node["Node Type"])
    ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) +
      (node["Rows Removed by Index Recheck"] ?? 0)) * loops
    : 0
  return (node.Plans ?? []).reduce((total, child) => total + rowsFetched(child), own)
}
