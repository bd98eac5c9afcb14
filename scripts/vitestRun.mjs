// What `pnpm test` and `pnpm reliability` share: vitest run with a JSON report, and the line CI
// reads at the end, `tests: N passed, M failed, K skipped`.
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"

export const root = join(import.meta.dirname, "..")

/** The environment of a test run: database tests run on embedded PGlite and, where this server answers, on a real PostgreSQL too. */
export const testEnv = (extra = {}) => ({
  ...process.env,
  ...extra,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
})

/** `vitest run args`, its progress on the terminal and its results as JSON in `report`; the exit status. */
export const runVitest = (args, report, env) => {
  mkdirSync(dirname(report), { recursive: true })
  rmSync(report, { force: true })
  const run = spawnSync(
    join(root, "node_modules", ".bin", "vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile=${report}`, ...args],
    { cwd: root, env, stdio: "inherit" }
  )
  return run.status
}

/** Prints the tally of `report` and exits: 0 only when vitest did and nothing failed. */
export const exitWithTally = (report, status) => {
  let passed = 0
  let failed = 0
  let skipped = 0
  try {
    const results = JSON.parse(readFileSync(report, "utf8"))
    passed = results.numPassedTests
    // A file that fails to load has no failed assertion of its own: count it as one failure.
    const brokenFiles = results.testResults.filter((file) =>
      file.status === "failed" && !file.assertionResults.some((test) =>
        test.status === "failed"
      )
    ).length
    failed = results.numFailedTests + brokenFiles
    skipped = results.numPendingTests + results.numTodoTests
  } catch {
    failed = Math.max(failed, 1)
  }
  if (status !== 0 && failed === 0) failed = 1
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  process.exit(status === 0 && failed === 0 ? 0 : 1)
}
