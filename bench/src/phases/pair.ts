import { freePort } from "@club/test-support"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Seeded } from "../database/seed.ts"
import { readAuditTrail, setAuditTrail } from "../database/auditTrailCopy.ts"
import { runSql } from "../database/runSql.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import type { LoadContext, Scenario } from "../scenarios.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { startProject } from "../servers/servers.ts"
import { type Comparison, settings } from "../settings.ts"
import { loadOptions } from "./loadOptions.ts"
import { profileArgs } from "./profileArgs.ts"
import { startSideBySide } from "./sideBySide.ts"

/** Each server's caller: one for both on a shared database, one each when each has its own. */
export interface Contexts {
  readonly project: LoadContext
  readonly baseline: LoadContext
}

/**
 * The two servers of the throughput and lists phases. `baseline` is the bare baseline on the
 * project's database, or, when comparing (`settings.comparison`), the compared server on a
 * database of its own: another build (BENCH_COMPARE_MAIN) migrating its database itself (with
 * BENCH_COMPARED_AUDIT=project, the project's audit trail set on it), or this build on a database
 * whose audit triggers are disabled (BENCH_COMPARE_AUDIT=off). Both databases
 * are seeded by the same `seed`, so their ids are the same.
 */
export interface Pair {
  readonly project: ServerProcess
  readonly baseline: ServerProcess
  readonly seeded: Seeded
  /** The baseline's own seeded ids (the project's, on a shared database). */
  readonly baselineSeeded: Seeded
  /** Whether each server has a database of its own (a comparison): then each has its own callers. */
  readonly separate: boolean
  readonly measure: (
    scenario: Scenario,
    contexts: Contexts
  ) => Promise<{ project: Measurement; baseline: Measurement }>
  /** Stops both servers and drops the database(s). */
  readonly stop: () => Promise<void>
}

/**
 * A measuring device, not a setting: every audited table's trigger running `audit_write()` (a row
 * trigger, migration 0032) or `audit_write_statement()` (its statement triggers, migration 0036)
 * disabled, so that the same build on this database writes no audit entry. Answers how many
 * triggers it disabled; a build without them has nothing to compare.
 */
const disableAuditTriggers = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const triggers = yield* sql<{ table: string; trigger: string }>`SELECT t.tgrelid::regclass::text AS table,
        quote_ident(t.tgname) AS trigger
      FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE p.proname IN ('audit_write', 'audit_write_statement') AND NOT t.tgisinternal ORDER BY 1, 2`
    if (triggers.length === 0) return yield* Effect.fail(new Error("no audit_write trigger: this build has no audit"))
    for (const { table, trigger } of triggers) yield* sql.unsafe(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`)
    return triggers.length
  })

const startCompared = async (
  comparison: Comparison,
  purpose: string,
  seed: (sql: SqlClient.SqlClient) => Effect.Effect<Seeded, unknown>
): Promise<Pair> => {
  const name = comparison.kind === "build" ? "before" : "audit-off"
  const databases = [
    await createTemporaryDatabase(settings.serverUrl, purpose),
    await createTemporaryDatabase(
      settings.serverUrl,
      `${purpose}_${comparison.kind === "build" ? "before" : "noaudit"}`
    )
  ] as const
  const servers: Array<ServerProcess> = []
  const stop = async () => {
    for (const server of servers.reverse()) await server.child.stop()
    for (const database of databases) await database.drop()
  }
  try {
    const start = async (serverName: string, url: string, main?: string) => {
      const server = await startProject({
        name: serverName,
        port: await freePort(),
        database: { kind: "server", url },
        nodeArgs: profileArgs(serverName),
        logLevel: settings.logLevel,
        ...(main === undefined ? {} : { main })
      })
      servers.push(server)
      return server
    }
    // Each server migrates its own database; the seed is the same for both.
    const project = await start("project", databases[0].url)
    const seeded = await runSql(databases[0].url, seed)
    const baseline = await start(name, databases[1].url, comparison.kind === "build" ? comparison.main : undefined)
    // BENCH_COMPARED_AUDIT=project: the trail is set before the seed, so both trails hold its entries.
    if (comparison.kind === "build" && comparison.comparedWithProjectAudit) {
      const trail = await runSql(databases[0].url, readAuditTrail)
      const { absent, audited } = await runSql(databases[1].url, setAuditTrail(trail))
      console.log(
        `  ${name}: the project's audit trail set on ${audited.length} tables${
          absent.length === 0 ? "" : ` (${absent.length} audited tables it does not have: ${absent.join(", ")})`
        }`
      )
    }
    const baselineSeeded = await runSql(databases[1].url, seed)
    // The compared server's database (BENCH_COMPARE_AUDIT=off), or the project's (BENCH_PROJECT_AUDIT=off).
    const withoutAudit = comparison.kind === "auditOff"
      ? { server: name, url: databases[1].url }
      : comparison.projectAuditOff
      ? { server: "project", url: databases[0].url }
      : undefined
    if (withoutAudit !== undefined) {
      const tables = await runSql(withoutAudit.url, disableAuditTriggers)
      console.log(`  ${withoutAudit.server}: ${tables} audit triggers disabled`)
    }
    return {
      project,
      baseline,
      seeded,
      baselineSeeded,
      separate: true,
      measure: async (scenario, contexts) => {
        const [baselineResult, projectResult] = await measureSideBySide(
          [baseline, project],
          scenario,
          [contexts.baseline, contexts.project],
          loadOptions()
        )
        return { project: projectResult!, baseline: baselineResult! }
      },
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** The project and its yardstick (see Pair), each on a fresh database made for `purpose`. */
export const startPair = async (
  purpose: string,
  seed: (sql: SqlClient.SqlClient) => Effect.Effect<Seeded, unknown>
): Promise<Pair> => {
  if (settings.comparison !== undefined) return startCompared(settings.comparison, purpose, seed)
  const database = await createTemporaryDatabase(settings.serverUrl, purpose)
  try {
    const servers = await startSideBySide(database.url, seed)
    return {
      project: servers.project,
      baseline: servers.baseline,
      seeded: servers.seeded,
      baselineSeeded: servers.seeded,
      separate: false,
      measure: (scenario, contexts) => servers.measure(scenario, contexts.project),
      stop: async () => {
        await servers.stop()
        await database.drop()
      }
    }
  } catch (error) {
    await database.drop()
    throw error
  }
}
