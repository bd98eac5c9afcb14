import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { ensureDir, resultsDir } from "../process/paths.ts"
import { renderChartSvg, renderPng } from "./chart.ts"
import { renderMarkdown } from "./markdown.ts"
import type { Results } from "./Results.ts"

/** results/results.json (every number), results/results.md (the tables) and results/throughput.png. */
export const writeResults = (results: Results, dir = resultsDir): ReadonlyArray<string> => {
  ensureDir(dir)
  const written = [join(dir, "results.json"), join(dir, "results.md")]
  writeFileSync(written[0]!, `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(written[1]!, renderMarkdown(results))
  if (results.throughput !== undefined && results.throughput.length > 0) {
    const env = results.environment
    const subtitle =
      `${env.cores} cores, Node ${env.node}, ${env.postgres}; ${results.settings.durationSeconds} s per scenario after ` +
      `${results.settings.warmupSeconds} s warm-up; ${env.date.slice(0, 10)}`
    const png = join(dir, "throughput.png")
    writeFileSync(png, renderPng(renderChartSvg(results.throughput, subtitle)))
    written.push(png)
  }
  return written
}
