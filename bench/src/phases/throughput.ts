import { comparedThroughputScenarios } from "../compareScenarios.ts"
import { seed } from "../database/seed.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { type Scenario, scenarios } from "../scenarios.ts"
import { settings } from "../settings.ts"
import { expectSameAnswer, expectSameWriteAnswer } from "./answerItems.ts"
import { prepareCallers } from "./callers.ts"
import { startPair } from "./pair.ts"

export interface ScenarioResult {
  readonly scenario: Scenario
  readonly project: Measurement
  readonly baseline: Measurement
}

/** The writes whose cost the audit adds to (BENCH_COMPARE_AUDIT=off measures these unless BENCH_SCENARIOS says). */
const writes = (scenario: Scenario) => scenario.kind === "write" || scenario.name.endsWith("-create")

/**
 * The phase's scenarios: against the baseline, those it answers; comparing two builds, also gRPC
 * and the planning write (`compareScenarios.ts`); comparing the audit's cost, the writes.
 */
export const selectedScenarios = (): ReadonlyArray<Scenario> => {
  const all = settings.comparison === undefined ? scenarios : comparedThroughputScenarios
  if (settings.scenarios !== undefined) return all.filter((s) => settings.scenarios!.includes(s.name))
  return settings.comparison?.kind === "auditOff" ? all.filter(writes) : all
}

/** Reads whose answers both servers must give alike before they are measured (a list call is a POST). */
const comparedRead = (scenario: Scenario, method: string) =>
  method === "GET" || scenario.name === "connect-list" || scenario.name === "grpc-list"

/**
 * Every scenario against the project's server and the baseline (or the compared server: see
 * `Pair`), side by side on the same fresh data set (see measureSideBySide). Reads run before
 * writes, so that every read scenario sees the seeded data set as it is. A read, and a write, is
 * first sent once to both, and the run fails unless both answer the same (a write: but for the new
 * row's id).
 */
export const throughputPhase = async (): Promise<ReadonlyArray<ScenarioResult>> => {
  const servers = await startPair("load", (sql) => seed(sql, settings.dataSet))
  try {
    const project = await prepareCallers(servers.project.url, servers.seeded)
    const contexts = {
      project,
      baseline: servers.separate ? await prepareCallers(servers.baseline.url, servers.baselineSeeded) : project
    }
    const results: Array<ScenarioResult> = []
    for (const scenario of selectedScenarios()) {
      if (comparedRead(scenario, scenario.request(contexts.project).method)) {
        await expectSameAnswer(servers, scenario, contexts)
      } else if (writes(scenario)) await expectSameWriteAnswer(servers, scenario, contexts)
      results.push({ scenario, ...(await servers.measure(scenario, contexts)) })
    }
    return results
  } finally {
    await servers.stop()
  }
}
