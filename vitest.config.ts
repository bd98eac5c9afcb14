import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "bench/test/**/*.test.ts"
    ],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // vitest's default, one worker fewer than the cores, is a single worker on a 2-core machine.
    // Most test files wait on servers, child processes and databases rather than compute, so
    // a file per core keeps the machine busy: on 2 cores the whole run takes under half the time.
    maxWorkers: Math.max(2, availableParallelism())
  }
})
