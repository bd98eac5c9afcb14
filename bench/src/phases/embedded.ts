import { rmSync } from "node:fs"
import { join } from "node:path"
import { freePort } from "@club/test-support"
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { seed, type Seeded } from "../database/seed.ts"
import { seedEmbedded } from "../database/seedEmbedded.ts"
import { seedLists } from "../database/seedLists.ts"
import type { ListScenario } from "../listScenarios.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import { memoryOf } from "../process/memory.ts"
import { ensureDir, tmpDir } from "../process/paths.ts"
import type { LoadContext, Scenario } from "../scenarios.ts"
import { login } from "../servers/api.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { admin, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { expectItems } from "./answerItems.ts"
import { prepareCallers } from "./callers.ts"
import { selectedListScenarios } from "./lists.ts"
import { profileArgs } from "./profileArgs.ts"
import { loadOptions } from "./loadOptions.ts"
import { selectedScenarios } from "./throughput.ts"

export interface EmbeddedResult {
  readonly scenario: Scenario
  readonly project: Measurement
}

export interface EmbeddedListResult {
  readonly scenario: ListScenario
  readonly project: Measurement
}

export interface EmbeddedRun {
  readonly results: ReadonlyArray<EmbeddedResult>
  readonly peakRssMiB: number
  readonly lists: ReadonlyArray<EmbeddedListResult>
}

/** The project on a fresh embedded database (DATA_DIR) seeded by `seedData`, stopped and removed after `use`. */
const onEmbeddedDatabase = async <A>(
  seedData: (sql: SqlClient.SqlClient) => Effect.Effect<Seeded, unknown>,
  use: (project: ServerProcess, seeded: Seeded) => Promise<A>
): Promise<A> => {
  const dataDir = ensureDir(join(tmpDir, "embedded-data"))
  try {
    const seeded = await seedEmbedded(join(dataDir, "postgres"), seedData)
    const project = await startProject({
      name: "project-embedded",
      port: await freePort(),
      database: { kind: "embedded", dataDir },
      nodeArgs: profileArgs("project-embedded"),
      logLevel: settings.logLevel
    })
    const result = await use(project, seeded)
    await project.child.stop()
    return result
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The list scenarios are many (every endpoint at every size) and have no baseline to alternate
 * with: one run each, shorter than the PostgreSQL phases' (settings.embeddedListSeconds).
 */
const listLoadOptions = () => ({
  ...loadOptions(),
  warmupSeconds: Math.min(settings.warmupSeconds, settings.embeddedListWarmupSeconds),
  durationSeconds: settings.embeddedListSeconds,
  rounds: 1
})

/**
 * The throughput scenarios on the embedded database, then every list scenario of the lists phase,
 * each size on an embedded database of its own seeded as the lists phase seeds PostgreSQL; the
 * server alone: there is no baseline.
 */
export const embeddedPhase = async (): Promise<EmbeddedRun> => {
  const throughput = selectedScenarios()
  const { peakRssMiB, results } = throughput.length === 0
    ? { results: [], peakRssMiB: 0 }
    : await onEmbeddedDatabase((sql) => seed(sql, settings.dataSet), async (project, seeded) => {
      const context = await prepareCallers(project.url, seeded)
      const results: Array<EmbeddedResult> = []
      for (const scenario of throughput) {
        const [measurement] = await measureSideBySide([project], scenario, context, loadOptions())
        results.push({ scenario, project: measurement! })
      }
      return { results, peakRssMiB: memoryOf(project.child.pid).peakRssMiB }
    })
  const lists: Array<EmbeddedListResult> = []
  for (const items of settings.listSizes) {
    const scenarios = selectedListScenarios(items)
    if (scenarios.length === 0) continue
    await onEmbeddedDatabase((sql) => seedLists(sql, items), async (project, seeded) => {
      // The admin the server creates on its first start is the caller, as in the lists phase.
      const context: LoadContext = { seeded, token: await login(project.url, admin), login: admin }
      for (const scenario of scenarios) {
        await expectItems(project, scenario, context)
        const [measurement] = await measureSideBySide([project], scenario, context, listLoadOptions())
        lists.push({ scenario, project: measurement! })
      }
    })
  }
  return { results, peakRssMiB, lists }
}
