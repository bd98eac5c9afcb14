/**
 * How much each reliability test does. CI runs the short budget; `pnpm reliability` sets
 * RELIABILITY=long and runs the same tests for longer, on every database.
 */
export const isLongRun = process.env["RELIABILITY"] === "long"

export const budget = isLongRun
  ? {
    restFuzzRequests: 50_000,
    restFuzzConcurrency: 16,
    todoFuzzMessages: 50_000,
    outageCycles: 5,
    crashCycles: 5,
    shutdownCycles: 5,
    instancesRounds: 5
  }
  : {
    restFuzzRequests: 10_000,
    restFuzzConcurrency: 16,
    todoFuzzMessages: 5_000,
    outageCycles: 1,
    crashCycles: 1,
    shutdownCycles: 1,
    instancesRounds: 1
  }
