import { seedLists } from "../database/seedLists.ts"
import { listEndpoints, type ListScenario, listScenario } from "../listScenarios.ts"
import type { Measurement } from "../load/LoadResult.ts"
import type { LoadContext } from "../scenarios.ts"
import { login } from "../servers/api.ts"
import { admin } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { comparable, expectItems, expectSameAnswers } from "./answerItems.ts"
import { startPair } from "./pair.ts"

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
    const servers = await startPair(`lists_${items}`, (sql) => seedLists(sql, items))
    try {
      const project: LoadContext = {
        seeded: servers.seeded,
        token: await login(servers.project.url, admin),
        login: admin
      }
      const contexts = {
        project,
        baseline: servers.separate
          ? { seeded: servers.baselineSeeded, token: await login(servers.baseline.url, admin), login: admin }
          : project
      }
      for (const scenario of scenarios) {
        console.log(`  ${scenario.name}`)
        expectSameAnswers(
          scenario,
          comparable(await expectItems(servers.baseline, scenario, contexts.baseline), servers.separate),
          comparable(await expectItems(servers.project, scenario, contexts.project), servers.separate)
        )
        results.push({ scenario, ...(await servers.measure(scenario, contexts)) })
      }
    } finally {
      await servers.stop()
    }
  }
  return results
}
