import { join } from "node:path"
import type { LoadContext } from "../scenarios.ts"
import { runChild } from "../process/ChildGroup.ts"
import { nodeBinary } from "../process/paths.ts"
import type { LoadOptions, LoadResult } from "./LoadResult.ts"

const loadgen = join(import.meta.dirname, "loadgen.ts")
let runs = 0

/** Runs the load generator as a process of its own and returns what it measured. */
export const runLoad = async (options: LoadOptions, context: LoadContext): Promise<LoadResult> => {
  const output = await runChild({
    name: `load generator (${options.scenario})`,
    command: nodeBinary,
    args: [loadgen, JSON.stringify({ ...options, context: { ...context, run: ++runs } })],
    timeoutMs: (options.durationSeconds + 60) * 1000
  })
  return JSON.parse(output) as LoadResult
}
