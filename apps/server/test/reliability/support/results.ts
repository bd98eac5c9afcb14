import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { isLongRun } from "./budget.ts"

const folder = fileURLToPath(new URL("../../../../../test-results/reliability/", import.meta.url))

/**
 * Keeps the numbers a test measured, for `pnpm reliability`'s report and docs/RELIABILITY.md:
 * `test-results/reliability/<name>.json`, and one line on the console.
 */
export const recordResult = (name: string, numbers: Record<string, unknown>) => {
  const result = { name, run: isLongRun ? "long" : "ci", at: new Date().toISOString(), ...numbers }
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`)
  console.log(`[reliability] ${name}: ${JSON.stringify(numbers)}`)
}

/** The p-th percentile (0..100) of some durations, in ms. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
