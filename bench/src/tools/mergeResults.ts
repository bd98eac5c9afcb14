// node src/tools/mergeResults.ts <partial results.json> <settings text> <what> [<another partial> <settings> <what> ...]
// Merges the sections a partial run measured (BENCH_WRITE_RESULTS=0 writes bench/.tmp/results/)
// into the committed results/: a throughput, list or schedule row replaces the row of its scenario,
// any other section the section; results.md says what was measured again, when and at which commit.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { resultsDir } from "../process/paths.ts"
import type { Results } from "../report/Results.ts"
import { writeResults } from "../report/writeResults.ts"

const byScenario = <T extends { readonly scenario: { readonly name: string } }>(
  kept: ReadonlyArray<T> | undefined,
  measured: ReadonlyArray<T> | undefined
) =>
  measured === undefined
    ? kept
    : [
      ...(kept ?? []).map((row) => measured.find((m) => m.scenario.name === row.scenario.name) ?? row),
      ...measured.filter((m) => !(kept ?? []).some((row) => row.scenario.name === m.scenario.name))
    ]

const args = process.argv.slice(2)
let results = JSON.parse(readFileSync(join(resultsDir, "results.json"), "utf8")) as Results
for (let i = 0; i + 2 < args.length; i += 3) {
  const partial = JSON.parse(readFileSync(args[i]!, "utf8")) as Results
  results = {
    ...results,
    ...Object.fromEntries(
      Object.entries(partial).filter(([key]) => !["environment", "settings", "throughput", "lists"].includes(key))
    ),
    ...(results.throughput === undefined && partial.throughput === undefined
      ? {}
      : { throughput: byScenario(results.throughput, partial.throughput) ?? [] }),
    ...(results.lists === undefined && partial.lists === undefined
      ? {}
      : { lists: byScenario(results.lists, partial.lists) ?? [] }),
    remeasured: [
      ...(results.remeasured ?? []),
      { what: args[i + 2]!, environment: partial.environment, settings: args[i + 1]! }
    ]
  }
}
console.log(writeResults(results).join(", "))
