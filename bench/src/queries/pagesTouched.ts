/**
 * The pages a plan touched: `Shared Hit Blocks` + `Shared Read Blocks` of the root node of
 * `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`, which counts its children's too. Where rows fetched
 * (rowsFetched.ts) miss a plan that probes an index once per row of a range and finds nothing
 * most times (each probe reads its pages; PostgreSQL 15 reports the rows a loop found as a whole
 * number, 0 when most loops find none), the pages do not. Whether a page was in the cache or read
 * does not change the sum, so two runs of the same plan touch the same pages.
 */
export interface BufferCounts {
  readonly "Shared Hit Blocks"?: number
  readonly "Shared Read Blocks"?: number
}

export const pagesTouched = (root: BufferCounts): number =>
  (root["Shared Hit Blocks"] ?? 0) + (root["Shared Read Blocks"] ?? 0)
