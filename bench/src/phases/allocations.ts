import autocannon from "autocannon"
import { freePort } from "@club/test-support"
import { seed } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { type AllocationSample, inspectorArgs, sampleAllocations } from "../load/allocationSampler.ts"
import { scenarioRequests } from "../load/scenarioRequests.ts"
import type { LoadContext, Scenario } from "../scenarios.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"
import { startSideBySide } from "./sideBySide.ts"
import { selectedScenarios } from "./throughput.ts"

export interface AllocationResult {
  readonly scenario: Scenario
  readonly project: AllocationSample
  readonly baseline: AllocationSample
}

/**
 * Left out: the full listing (5,000 sessions an answer; the memory phase measures what it holds)
 * and the login (a scrypt hash an answer, throttled per name).
 */
const sampled = (scenario: Scenario) => scenario.name !== "session-all" && scenario.kind !== "login"

/** `amount` requests of the scenario, each drawn as the throughput phase draws them; the number answered as expected. */
const loadOf = (url: string, scenario: Scenario, context: LoadContext) => async (amount: number) => {
  const result = await autocannon({
    url,
    connections: 8,
    amount,
    timeout: 30,
    requests: scenarioRequests(scenario, context)
  })
  const expected = Number(result.statusCodeStats?.[String(scenario.expectedStatus)]?.count ?? 0)
  if (expected < amount) {
    throw new Error(
      `${scenario.name}: ${amount - expected} of ${amount} requests were not answered ${scenario.expectedStatus}`
    )
  }
  return expected
}

/**
 * What each server allocates per request, and where (src/load/allocationSampler.ts): the
 * throughput phase's scenarios on its data set, both servers started with their inspector open,
 * one after the other (the sampler's counts are bytes, which the other server's load does not
 * change). No target: the figures say where a request's garbage comes from when a throughput
 * target is missed.
 */
export const allocationsPhase = async (): Promise<ReadonlyArray<AllocationResult>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "allocations")
  try {
    const projectInspector = await freePort()
    const baselineInspector = await freePort()
    const servers = await startSideBySide(database.url, (sql) => seed(sql, settings.dataSet), {
      project: inspectorArgs(projectInspector),
      baseline: inspectorArgs(baselineInspector)
    })
    const context = await prepareCallers(servers.project.url, servers.seeded)
    const results: Array<AllocationResult> = []
    for (const scenario of selectedScenarios().filter(sampled)) {
      const baseline = await sampleAllocations(
        baselineInspector,
        settings.allocationRequests,
        loadOf(servers.baseline.url, scenario, context)
      )
      const project = await sampleAllocations(
        projectInspector,
        settings.allocationRequests,
        loadOf(servers.project.url, scenario, context)
      )
      console.log(
        `  ${scenario.title.padEnd(50)} ${
          (project.bytesPerRequest / 1024).toFixed(1).padStart(6)
        } KB a request, baseline ${(baseline.bytesPerRequest / 1024).toFixed(1).padStart(6)} KB`
      )
      results.push({ scenario, project, baseline })
    }
    await servers.stop()
    return results
  } finally {
    await database.drop()
  }
}
