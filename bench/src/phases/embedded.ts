import { rmSync } from "node:fs"
import { join } from "node:path"
import { seedEmbedded } from "../database/seedEmbedded.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import { freePort } from "@club/test-support"
import { memoryOf } from "../process/memory.ts"
import { ensureDir, tmpDir } from "../process/paths.ts"
import type { Scenario } from "../scenarios.ts"
import { startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"
import { loadOptions, profileArgs, selectedScenarios } from "./throughput.ts"

export interface EmbeddedResult {
  readonly scenario: Scenario
  readonly project: Measurement
}

export interface EmbeddedRun {
  readonly results: ReadonlyArray<EmbeddedResult>
  readonly peakRssMiB: number
}

/** The same scenarios on the embedded database (DATA_DIR), the server alone: there is no baseline. */
export const embeddedPhase = async (): Promise<EmbeddedRun> => {
  const dataDir = ensureDir(join(tmpDir, "embedded-data"))
  try {
    const seeded = await seedEmbedded(join(dataDir, "postgres"), settings.dataSet)
    const project = await startProject({
      name: "project-embedded",
      port: await freePort(),
      database: { kind: "embedded", dataDir },
      nodeArgs: profileArgs("project-embedded"),
      logLevel: settings.logLevel
    })
    const context = await prepareCallers(project.url, seeded)
    const results: Array<EmbeddedResult> = []
    for (const scenario of selectedScenarios()) {
      const [measurement] = await measureSideBySide([project], scenario, context, loadOptions())
      results.push({ scenario, project: measurement! })
    }
    const peakRssMiB = memoryOf(project.child.pid).peakRssMiB
    await project.child.stop()
    return { results, peakRssMiB }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
