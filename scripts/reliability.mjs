// `pnpm reliability`: the reliability tests of apps/server/test/reliability with the long budget
// (RELIABILITY=long: more fuzzing, on both databases, more outages, kills and signals), then a
// report of what each measured, from test-results/reliability/*.json. Ends with the line
// `tests: N passed, M failed, K skipped`, like `pnpm test`.
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const results = join(root, "test-results", "reliability")
const vitestReport = join(root, "test-results", "reliability-vitest.json")
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const env = { ...process.env, RELIABILITY: process.env.RELIABILITY ?? "long" }
env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres"

const started = Date.now()
const run = spawnSync(
  join(root, "node_modules", ".bin", "vitest"),
  [
    "run",
    "apps/server/test/reliability",
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${vitestReport}`,
    ...process.argv.slice(2)
  ],
  { cwd: root, env, stdio: "inherit" }
)
const minutes = ((Date.now() - started) / 60_000).toFixed(1)

const lines = [`# Reliability run (${env.RELIABILITY}), ${new Date().toISOString()}, ${minutes} min`, ""]
for (const file of readdirSync(results).filter((name) => name.endsWith(".json")).sort()) {
  const { name, run: budget, at, ...numbers } = JSON.parse(readFileSync(join(results, file), "utf8"))
  lines.push(`## ${name}`, "", "```json", JSON.stringify(numbers, null, 2), "```", "")
}
writeFileSync(join(results, "REPORT.md"), `${lines.join("\n")}\n`)
console.log(`\n${lines.join("\n")}`)
console.log(`Report: ${join("test-results", "reliability", "REPORT.md")}`)

let passed = 0
let failed = 0
let skipped = 0
try {
  const report = JSON.parse(readFileSync(vitestReport, "utf8"))
  passed = report.numPassedTests
  failed = report.numFailedTests +
    report.testResults.filter((file) =>
      file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")
    ).length
  skipped = report.numPendingTests + report.numTodoTests
} catch {
  failed = Math.max(failed, 1)
}
if (run.status !== 0 && failed === 0) failed = 1
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(run.status === 0 && failed === 0 ? 0 : 1)
