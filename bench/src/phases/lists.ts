import { seedLists } from "../database/seedLists.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { listEndpoints, type ListScenario, listScenario } from "../listScenarios.ts"
import type { Measurement } from "../load/LoadResult.ts"
import type { LoadContext } from "../scenarios.ts"
import { login } from "../servers/api.ts"
import { admin } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { expectItems, expectSameAnswers } from "./answerItems.ts"
import { startSideBySide } from "./sideBySide.ts"

export interface ListResult {
  readonly scenario: ListScenario
  readonly project: Measurement
  readonly baseline: Measurement
}

/** BENCH_SCENARIOS names a list scenario by its full name (`list-users-50`) or every size at once (`list-users`). */
const selected = (scenario: ListScenario) =>
  settings.scenarios === undefined ||
  settings.scenarios.includes(scenario.name) ||
  settings.scenarios.includes(`list-${scenario.endpoint.name}`)

export const selectedListScenarios = (items: number): ReadonlyArray<ListScenario> =>
  listEndpoints.map((endpoint) => listScenario(endpoint, items)).filter(selected)

/**
 * Every list endpoint at answers of each size of BENCH_LIST_SIZES, project and baseline side by
 * side. Each size has a database of its own (seedLists), since some listings answer every row of a
 * table. The caller is the admin: the one role every listing allows, the user list included.
 */
export const listsPhase = async (): Promise<ReadonlyArray<ListResult>> => {
  const results: Array<ListResult> = []
  for (const items of settings.listSizes) {
    const scenarios = selectedListScenarios(items)
    if (scenarios.length === 0) continue
    const database = await createTemporaryDatabase(settings.serverUrl, `lists_${items}`)
    try {
      const servers = await startSideBySide(database.url, (sql) => seedLists(sql, items))
      const context: LoadContext = {
        seeded: servers.seeded,
        token: await login(servers.project.url, admin),
        login: admin
      }
      for (const scenario of scenarios) {
        console.log(`  ${scenario.name}`)
        expectSameAnswers(
          scenario,
          await expectItems(servers.baseline, scenario, context),
          await expectItems(servers.project, scenario, context)
        )
        results.push({ scenario, ...(await servers.measure(scenario, context)) })
      }
      await servers.stop()
    } finally {
      await database.drop()
    }
  }
  return results
}
