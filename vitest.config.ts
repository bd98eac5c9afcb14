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
    pool: "forks"
  }
})
