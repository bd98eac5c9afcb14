import { seed } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { type Scenario, scenarios } from "../scenarios.ts"
import { settings } from "../settings.ts"
import { expectSameAnswer, expectSameWriteAnswer } from "./answerItems.ts"
import { prepareCallers } from "./callers.ts"
import { startSideBySide } from "./sideBySide.ts"

export interface ScenarioResult {
  readonly scenario: Scenario
  readonly project: Measurement
  readonly baseline: Measurement
}

export const selectedScenarios = (): ReadonlyArray<Scenario> =>
  scenarios.filter((s) => settings.scenarios === undefined || settings.scenarios.includes(s.name))

/**
 * Every scenario against the project's server and the baseline, side by side on the same fresh
 * database (see measureSideBySide). Reads run before writes, so that every read scenario sees the
 * seeded data set as it is. A GET, and a write, is first sent once to both, and the run fails
 * unless both answer the same (a write: but for the new row's id).
 */
export const throughputPhase = async (): Promise<ReadonlyArray<ScenarioResult>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "load")
  try {
    const servers = await startSideBySide(database.url, (sql) => seed(sql, settings.dataSet))
    const context = await prepareCallers(servers.project.url, servers.seeded)
    const results: Array<ScenarioResult> = []
    for (const scenario of selectedScenarios()) {
      if (scenario.request(context).method === "GET") await expectSameAnswer(servers, scenario, context)
      else if (scenario.kind === "write" || scenario.name === "connect-create") {
        await expectSameWriteAnswer(servers, scenario, context)
      }
      results.push({ scenario, ...(await servers.measure(scenario, context)) })
    }
    await servers.stop()
    return results
  } finally {
    await database.drop()
  }
}
