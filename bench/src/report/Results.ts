import type { SmallWorkloadRun } from "../phases/smallWorkload.ts"
import type { AllocationSample } from "../load/allocationSampler.ts"
import type { AttendanceResult } from "../phases/attendance.ts"
import type { FederationSeed } from "../phases/membership.ts"
import type { Measurement } from "../load/LoadResult.ts"
import type { ListingStep } from "../phases/memory.ts"
import type { PlanDataSet } from "../phases/plans.ts"
import type { ProbeCount } from "../phases/queryCounts.ts"
import type { WorstInputRun } from "../phases/worstInputs.ts"
import type { RetentionResult } from "../phases/retention.ts"
import type { ScenarioKind } from "../scenarios.ts"
import type { Environment } from "./environment.ts"

export interface ScenarioRef {
  readonly name: string
  readonly title: string
  readonly kind: ScenarioKind
  readonly connections: number
}

/** A scenario of the lists phase: which list endpoint, and how many entries its answer holds. */
export interface ListScenarioRef extends ScenarioRef {
  readonly endpoint: string
  readonly items: number
}

/** Everything one run measured, as written to results/results.json. */
export interface Results {
  readonly environment: Environment
  /**
   * Sections measured again by a partial run and merged into the full run's results: what, when,
   * at which commit and with which settings (the rest of the file is the full run's).
   */
  readonly remeasured?: ReadonlyArray<
    { readonly what: string; readonly environment: Environment; readonly settings: string }
  >
  readonly settings: {
    readonly connections: number
    readonly warmupSeconds: number
    readonly durationSeconds: number
    readonly rounds: number
    readonly dataSet: Readonly<Record<string, number>>
    readonly listSizes?: ReadonlyArray<number>
  }
  readonly throughput?: ReadonlyArray<
    { readonly scenario: ScenarioRef; readonly project: Measurement; readonly baseline: Measurement }
  >
  readonly lists?: ReadonlyArray<
    { readonly scenario: ListScenarioRef; readonly project: Measurement; readonly baseline: Measurement }
  >
  readonly queries?: ReadonlyArray<ProbeCount>
  /** Each read statement's rows fetched under a custom and a generic plan, per data set. */
  readonly plans?: {
    readonly factor: number
    readonly slack: number
    readonly dataSets: ReadonlyArray<PlanDataSet>
  }
  readonly listing?: ReadonlyArray<ListingStep>
  /** Resident memory after a small workload (phase memory), embedded and PostgreSQL. */
  readonly smallWorkload?: ReadonlyArray<SmallWorkloadRun>
  readonly observability?: ReadonlyArray<{
    readonly scenario: ScenarioRef
    readonly variants: ReadonlyArray<
      { readonly name: string; readonly env: Readonly<Record<string, string>>; readonly measurement: Measurement }
    >
  }>
  /** Issue 17's schedule scenarios, on the project alone; `answer` says what each answer held. */
  readonly schedule?: ReadonlyArray<
    { readonly scenario: ScenarioRef; readonly project: Measurement; readonly answer: string }
  >
  /** Bytes each server allocates per request of a throughput scenario, and its largest allocators. */
  readonly allocations?: ReadonlyArray<
    { readonly scenario: ScenarioRef; readonly project: AllocationSample; readonly baseline: AllocationSample }
  >
  /** Issue 18's bursts of replies to one full session, on the project alone. */
  readonly attendance?: AttendanceResult
  /** Issue 41's reads on a federation (item 6), project and baseline side by side; `answer` says what each held. */
  readonly membership?: {
    readonly seed: FederationSeed
    readonly results: ReadonlyArray<{
      readonly scenario: ScenarioRef
      readonly project: Measurement
      readonly baseline: Measurement
      readonly answer: string
    }>
  }
  /** Issue 37: each endpoint's worst documented input, and what the other clients met meanwhile. */
  readonly worstInputs?: ReadonlyArray<WorstInputRun>
  /** Issue 43: the retention purge of a large outbox, and the requests meanwhile. */
  readonly retention?: RetentionResult
  readonly embedded?: {
    readonly peakRssMiB: number
    readonly results: ReadonlyArray<{ readonly scenario: ScenarioRef; readonly project: Measurement }>
    /** The list scenarios, measured shorter: `listSeconds` after `listWarmupSeconds`, one run each. */
    readonly lists?: ReadonlyArray<{ readonly scenario: ListScenarioRef; readonly project: Measurement }>
    readonly listSeconds?: number
    readonly listWarmupSeconds?: number
  }
}
