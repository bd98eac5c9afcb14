import { compareScenarios } from "./compareScenarios.ts"
import { listEndpoints, listScenario } from "./listScenarios.ts"
import { membershipScenarios } from "./membershipScenarios.ts"
import { type Scenario, scenarios } from "./scenarios.ts"
import { scheduleScenarios } from "./scheduleScenarios.ts"

/** A scenario of the throughput (compared ones included), schedule or membership phase, or a list scenario `list-<endpoint>-<items>` of the lists phase. */
export const scenarioNamed = (name: string): Scenario => {
  const scenario = [...scenarios, ...compareScenarios, ...scheduleScenarios, ...membershipScenarios].find((s) =>
    s.name === name
  )
  if (scenario !== undefined) return scenario
  const list = /^list-(.+)-(\d+)$/.exec(name)
  const endpoint = list === null ? undefined : listEndpoints.find((e) => e.name === list[1])
  if (endpoint === undefined) throw new Error(`no scenario named ${name}`)
  return listScenario(endpoint, Number(list![2]))
}
