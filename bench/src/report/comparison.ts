// The report of a comparison (BENCH_COMPARE_MAIN, BENCH_COMPARE_AUDIT; README "Comparing two
// builds"): comparison.md and comparison.json, beside the full run's results, which it leaves as
// they are.
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Measurement } from "../load/LoadResult.ts"
import { ensureDir, resultsDir } from "../process/paths.ts"
import type { Environment } from "./environment.ts"
import type { ListScenarioRef, Results, ScenarioRef } from "./Results.ts"

/** Issue 39's rule: no scenario more than 10% slower (req/s) than the build compared with. */
export const slowerAtMost = 0.1

export interface ComparedRow {
  readonly scenario: ScenarioRef | ListScenarioRef
  readonly project: Measurement
  /** The compared server (the "before" build, or this build without audit triggers). */
  readonly other: Measurement
}

export interface ComparisonResults {
  readonly environment: Environment
  readonly settings: Results["settings"]
  /** What stood in the baseline's place, as the tables name it ("before", "audit off"). */
  readonly label: string
  /** Which builds: the project's commit and the compared one's. */
  readonly project: string
  readonly other: string
  readonly throughput?: ReadonlyArray<ComparedRow>
  readonly lists?: ReadonlyArray<ComparedRow>
}

const n0 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 0 })
const n2 = (x: number) => x.toFixed(2)
const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`

const titleOf = (scenario: ScenarioRef | ListScenarioRef) =>
  scenario.title + (scenario.kind === "connect" && !scenario.title.includes("gRPC") ? " (Connect JSON)" : "") +
  ("items" in scenario ? `, ${n0(scenario.items)} entries` : "")

/**
 * Slower by more than `slowerAtMost` is the one failure; the p99 and the CPU are shown to explain
 * it. A login is the password hash and the login's rate limit (its 429s), not the build: shown,
 * not judged, as against the baseline.
 */
const judged = (row: ComparedRow) => row.scenario.kind !== "login"
const slowerThanAllowed = (row: ComparedRow) =>
  judged(row) && row.project.requestsPerSecond / row.other.requestsPerSecond < 1 - slowerAtMost
const verdict = (
  row: ComparedRow
) => (!judged(row) ? "—" : slowerThanAllowed(row) ? "**more than 10% slower**" : "pass")

const table = (label: string, rows: ReadonlyArray<ComparedRow>) => {
  const lines = [
    row([
      "Scenario",
      `req/s ${label} / project`,
      "ratio",
      `p99 ms ${label} / project`,
      "p99 ratio",
      `server CPU µs/req ${label} / project`,
      `PostgreSQL CPU µs/req ${label} / project`,
      `other CPU % ${label} / project`,
      "≤ 10% slower"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---"])
  ]
  for (const compared of rows) {
    const { other, project, scenario } = compared
    const ratio = project.requestsPerSecond / other.requestsPerSecond
    const failures = project.failures + other.failures
    lines.push(row([
      titleOf(scenario),
      `${n0(other.requestsPerSecond)} / ${n0(project.requestsPerSecond)}`,
      n2(ratio),
      `${n0(other.p99Ms)} / ${n0(project.p99Ms)}`,
      n2(project.p99Ms / other.p99Ms),
      `${n0(other.serverCpuMicrosPerRequest)} / ${n0(project.serverCpuMicrosPerRequest)}`,
      `${n0(other.postgresCpuMicrosPerRequest)} / ${n0(project.postgresCpuMicrosPerRequest)}`,
      `${n0(other.otherCpuPercent)} / ${n0(project.otherCpuPercent)}`,
      verdict(compared) + (failures > 0 ? ` (${failures} failed requests)` : "")
    ]))
  }
  return lines.join("\n")
}

export const renderComparison = (results: ComparisonResults): string => {
  const { environment: env, label, settings } = results
  const all = [...(results.throughput ?? []), ...(results.lists ?? [])]
  const slower = all.filter(slowerThanAllowed)
  return [
    `# Comparison: ${label} against the project`,
    "",
    `Run ${env.date} on ${env.cores} × ${env.cpu}, ${env.memoryGiB} GiB, Node ${env.node}, ${env.postgres}.`,
    `Project: ${results.project}. ${label}: ${results.other}.`,
    `Each server on a database of its own, seeded alike; each scenario: ${settings.warmupSeconds} s warm-up, then ` +
    `${settings.durationSeconds} s measured per server in ${settings.rounds} runs alternating between them (ABBA), ` +
    `${settings.connections} connections unless the scenario says otherwise; each answer checked alike on both first. ` +
    "Ratio is project / " + label + " req/s; p99 ratio project / " + label + ". PostgreSQL CPU is the CPU time of " +
    "every PostgreSQL process per answered request (every database of the server: the other server's is idle " +
    "meanwhile, but not what other work on the machine asks of it; compare it only with the other CPU low).",
    `Produced by \`pnpm bench\` with ${
      label === "audit off" ? "BENCH_COMPARE_AUDIT=off" : "BENCH_COMPARE_MAIN"
    }; see bench/README.md.`,
    "",
    slower.length === 0
      ? "No scenario more than 10% slower than " + label + "."
      : `More than 10% slower than ${label}: ${slower.map((r) => r.scenario.name).join(", ")}.`,
    "",
    ...(results.throughput === undefined ? [] : ["## Throughput scenarios", "", table(label, results.throughput), ""]),
    ...(results.lists === undefined ? [] : ["## List answers", "", table(label, results.lists), ""])
  ].join("\n")
}

/** comparison.json (every number) and comparison.md (the tables) in `dir`. */
export const writeComparison = (results: ComparisonResults, dir = resultsDir): ReadonlyArray<string> => {
  ensureDir(dir)
  const written = [join(dir, "comparison.json"), join(dir, "comparison.md")]
  writeFileSync(written[0]!, `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(written[1]!, `${renderComparison(results)}\n`)
  return written
}
