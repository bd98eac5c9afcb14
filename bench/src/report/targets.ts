import type { ScenarioKind } from "../scenarios.ts"

/**
 * The targets of issue #16 (they replace issue #6's 0.6× and 0.5×); ratios are project / baseline,
 * measured side by side in one run. Every REST and Connect scenario, lists included, has the same
 * throughput and p99 target; a list's cost per further entry has its own.
 */
export const targets = {
  rest: { minThroughputRatio: 0.8, maxP99Ratio: 1.5 },
  connect: { minThroughputRatio: 0.8, maxP99Ratio: 1.5 },
  perEntry: { maxCpuRatio: 1.5 },
  listing: { maxPeakRssMB: 300, sessions: 100_000, maxPerSessionTimeSpread: 1.5 },
  /** Issue 40: a laptop or a small VM runs the server on its embedded database after a small workload. */
  smallWorkload: { maxPeakRssMiB: 256 }
} as const

export interface Verdict {
  readonly pass: boolean | undefined
  /** What was compared, for the table. */
  readonly text: string
}

export const throughputVerdict = (kind: ScenarioKind, ratio: number, p99Ratio: number): Verdict => {
  switch (kind) {
    case "read":
    case "write": {
      const { maxP99Ratio, minThroughputRatio } = targets.rest
      return {
        pass: ratio >= minThroughputRatio && p99Ratio <= maxP99Ratio,
        text: `req/s ≥ ${minThroughputRatio}×, p99 ≤ ${maxP99Ratio}×`
      }
    }
    case "connect": {
      const { maxP99Ratio, minThroughputRatio } = targets.connect
      return {
        pass: ratio >= minThroughputRatio && p99Ratio <= maxP99Ratio,
        text: `req/s ≥ ${minThroughputRatio}×, p99 ≤ ${maxP99Ratio}×`
      }
    }
    case "login":
      return { pass: undefined, text: "none (the hash dominates by design)" }
    case "floor":
      return { pass: undefined, text: "none (what the framework costs before any work)" }
  }
}

/**
 * "Time grows linearly": the time per session of the largest listing is within
 * `maxPerSessionTimeSpread` of the smallest one's.
 */
export const linearity = (steps: ReadonlyArray<{ readonly sessions: number; readonly ms: number }>) => {
  const perSession = steps.map((s) => s.ms / s.sessions)
  const first = perSession[0] ?? 0
  const last = perSession[perSession.length - 1] ?? 0
  const spread = first === 0 ? 0 : last / first
  return { spread, pass: spread <= targets.listing.maxPerSessionTimeSpread }
}

/** A list's server CPU per further entry against the baseline's. */
export const perEntryVerdict = (cpuRatio: number): Verdict => ({
  pass: cpuRatio <= targets.perEntry.maxCpuRatio,
  text: `≤ ${targets.perEntry.maxCpuRatio}×`
})
