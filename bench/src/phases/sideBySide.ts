import { freePort } from "@club/test-support"
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Seeded } from "../database/seed.ts"
import { runSql } from "../database/runSql.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import type { LoadContext, Scenario } from "../scenarios.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { startBaseline, startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { loadOptions } from "./loadOptions.ts"
import { profileArgs } from "./profileArgs.ts"

export interface SideBySide {
  readonly project: ServerProcess
  readonly baseline: ServerProcess
  readonly seeded: Seeded
  /** One scenario on both servers, in turns (measureSideBySide). */
  readonly measure: (
    scenario: Scenario,
    context: LoadContext
  ) => Promise<{ project: Measurement; baseline: Measurement }>
  readonly stop: () => Promise<void>
}

/**
 * The project's server on the database (its migrations make the schema), the data `seed` writes,
 * then the baseline on the same database: the two servers the phases measure side by side.
 * `nodeArgs` are node's flags for each (by default, a CPU profile's with BENCH_PROFILE=1).
 */
export const startSideBySide = async (
  databaseUrl: string,
  seed: (sql: SqlClient.SqlClient) => Effect.Effect<Seeded, unknown>,
  nodeArgs: { readonly project: ReadonlyArray<string>; readonly baseline: ReadonlyArray<string> } = {
    project: profileArgs("project"),
    baseline: profileArgs("baseline")
  }
): Promise<SideBySide> => {
  const project = await startProject({
    name: "project",
    port: await freePort(),
    database: { kind: "server", url: databaseUrl },
    nodeArgs: nodeArgs.project,
    logLevel: settings.logLevel
  })
  const seeded = await runSql(databaseUrl, seed)
  const baseline = await startBaseline({ port: await freePort(), databaseUrl, nodeArgs: nodeArgs.baseline })
  return {
    project,
    baseline,
    seeded,
    measure: async (scenario, context) => {
      const [baselineResult, projectResult] = await measureSideBySide(
        [baseline, project],
        scenario,
        context,
        loadOptions()
      )
      return { project: projectResult!, baseline: baselineResult! }
    },
    stop: async () => {
      await baseline.child.stop()
      await project.child.stop()
    }
  }
}
