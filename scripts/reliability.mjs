// `pnpm reliability`: the reliability tests of apps/server/test/reliability with the long budget
// (RELIABILITY=long: more fuzzing, on both databases, more outages, kills and signals), then a
// report of what each measured, from test-results/reliability/*.json. Ends with the line
// `tests: N passed, M failed, K skipped`, like `pnpm test`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { exitWithTally, root, runVitest, testEnv } from "./vitestRun.mjs"

const results = join(root, "test-results", "reliability")
const vitestReport = join(root, "test-results", "reliability-vitest.json")
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const env = testEnv({ RELIABILITY: process.env.RELIABILITY ?? "long" })

const started = Date.now()
const status = runVitest(["apps/server/test/reliability", ...process.argv.slice(2)], vitestReport, env)
const minutes = ((Date.now() - started) / 60_000).toFixed(1)

const lines = [`# Reliability run (${env.RELIABILITY}), ${new Date().toISOString()}, ${minutes} min`, ""]
for (const file of readdirSync(results).filter((name) => name.endsWith(".json")).sort()) {
  const { name, run: budget, at, ...numbers } = JSON.parse(readFileSync(join(results, file), "utf8"))
  lines.push(`## ${name}`, "", "```json", JSON.stringify(numbers, null, 2), "```", "")
}
writeFileSync(join(results, "REPORT.md"), `${lines.join("\n")}\n`)
console.log(`\n${lines.join("\n")}`)
console.log(`Report: ${join("test-results", "reliability", "REPORT.md")}`)

exitWithTally(vitestReport, status)
