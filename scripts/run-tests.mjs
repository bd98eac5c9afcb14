// Runs every test once (vitest, all packages and apps) and ends with the line CI reads:
// `tests: N passed, M failed, K skipped`.
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const report = join(root, "test-results", "vitest.json")
mkdirSync(join(root, "test-results"), { recursive: true })
rmSync(report, { force: true })

// Database tests run on embedded PGlite and, where this server answers, on a real PostgreSQL too.
const env = { ...process.env }
env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres"

const vitest = join(root, "node_modules", ".bin", "vitest")
const run = spawnSync(vitest, [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${report}`,
  ...process.argv.slice(2)
], {
  cwd: root,
  env,
  stdio: "inherit"
})

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
if (run.status !== 0 && failed === 0) failed = 1
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(run.status === 0 && failed === 0 ? 0 : 1)
