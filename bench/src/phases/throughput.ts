import { join } from "node:path"
import { runSql } from "../database/runSql.ts"
import { seed } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import { freePort } from "@club/test-support"
import { ensureDir, tmpDir } from "../process/paths.ts"
import { type Scenario, scenarios } from "../scenarios.ts"
import { startBaseline, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"

export interface ScenarioResult {
  readonly scenario: Scenario
  readonly project: Measurement
  readonly baseline: Measurement
}

export const selectedScenarios = (): ReadonlyArray<Scenario> =>
  scenarios.filter((s) => settings.scenarios === undefined || settings.scenarios.includes(s.name))

export const profileArgs = (name: string): ReadonlyArray<string> =>
  settings.profile ? ["--cpu-prof", `--cpu-prof-dir=${ensureDir(join(tmpDir, "profiles", name))}`] : []

export const loadOptions = () => ({
  connections: settings.connections,
  warmupSeconds: settings.warmupSeconds,
  durationSeconds: settings.durationSeconds,
  rounds: settings.rounds
})

/**
 * Every scenario against the project's server and the baseline, side by side on the same fresh
 * database (see measureSideBySide). Reads run before writes, so that every read scenario sees the
 * seeded data set as it is.
 */
export const throughputPhase = async (): Promise<ReadonlyArray<ScenarioResult>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "load")
  try {
    const project = await startProject({
      name: "project",
      port: await freePort(),
      database: { kind: "server", url: database.url },
      nodeArgs: profileArgs("project"),
      logLevel: settings.logLevel
    })
    const seeded = await runSql(database.url, (sql) => seed(sql, settings.dataSet))
    const baseline = await startBaseline({
      port: await freePort(),
      databaseUrl: database.url,
      nodeArgs: profileArgs("baseline")
    })
    const context = await prepareCallers(project.url, seeded)
    const results: Array<ScenarioResult> = []
    for (const scenario of selectedScenarios()) {
      const [baselineResult, projectResult] = await measureSideBySide(
        [baseline, project],
        scenario,
        context,
        loadOptions()
      )
      results.push({ scenario, project: projectResult!, baseline: baselineResult! })
    }
    await baseline.child.stop()
    await project.child.stop()
    return results
  } finally {
    await database.drop()
  }
}
