// `pnpm bench` (see bench/README.md): starts every process it needs, measures, writes
// bench/results/, and stops what it started and drops its databases, also when interrupted.
import { existsSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { runSql } from "./database/runSql.ts"
import type { ListScenario } from "./listScenarios.ts"
import { allocationsPhase } from "./phases/allocations.ts"
import { embeddedPhase } from "./phases/embedded.ts"
import { listsPhase } from "./phases/lists.ts"
import { memoryPhase } from "./phases/memory.ts"
import { smallWorkloadPhase, smallWorkloadSessions } from "./phases/smallWorkload.ts"
import { observabilityPhase } from "./phases/observability.ts"
import { plansFailed, plansPhase } from "./phases/plans.ts"
import { queryCountPhase } from "./phases/queryCounts.ts"
import { attendancePhase } from "./phases/attendance.ts"
import { membershipPhase } from "./phases/membership.ts"
import { schedulePhase } from "./phases/schedule.ts"
import { throughputPhase } from "./phases/throughput.ts"
import { worstInputsPhase } from "./phases/worstInputs.ts"
import { retentionPhase } from "./phases/retention.ts"
import { installSignalHandlers, runCleanups } from "./process/cleanup.ts"
import { ensureDir, serverMain, tmpDir } from "./process/paths.ts"
import { planStability } from "./queries/planStability.ts"
import { type ComparedRow, type ComparisonResults, writeComparison } from "./report/comparison.ts"
import { commitOf, describeEnvironment } from "./report/environment.ts"
import type { ListScenarioRef, Results, ScenarioRef } from "./report/Results.ts"
import { writeResults } from "./report/writeResults.ts"
import type { Scenario } from "./scenarios.ts"
import { settings } from "./settings.ts"

const ref = (scenario: Scenario): ScenarioRef => ({
  name: scenario.name,
  title: scenario.title,
  kind: scenario.kind,
  connections: scenario.connections ?? settings.connections
})

const listRef = (scenario: ListScenario): ListScenarioRef => ({
  ...ref(scenario),
  endpoint: scenario.endpoint.name,
  items: scenario.items
})

const postgresVersion = async () => {
  const [row] = await runSql(settings.serverUrl, (sql) => sql<{ version: string }>`SHOW server_version`.pipe())
  return `PostgreSQL ${String((row as { server_version?: string } | undefined)?.server_version ?? "?").split(" ")[0]}`
}

/**
 * A comparison (BENCH_COMPARE_MAIN, BENCH_COMPARE_AUDIT): the throughput and lists phases with the
 * compared server in the baseline's place, written to comparison.md and comparison.json.
 */
const compare = async (comparison: NonNullable<typeof settings.comparison>, base: Results) => {
  const other = settings.phases.filter((phase) => phase !== "throughput" && phase !== "lists")
  if (other.length > 0) {
    throw new Error(`a comparison runs the throughput and lists phases only, not ${other.join(", ")}`)
  }
  if (comparison.kind === "build" && !existsSync(comparison.main)) {
    throw new Error(`${comparison.main} is missing: build that checkout first`)
  }
  const serverDir = (main: string) => dirname(main)
  let results: ComparisonResults = {
    environment: base.environment,
    settings: base.settings,
    label: comparison.label,
    project: `${commitOf(serverDir(serverMain))} (${serverMain})${
      comparison.kind === "build" && comparison.projectAuditOff
        ? ", on a database whose audit triggers are disabled (BENCH_PROJECT_AUDIT=off: a measuring device, not a setting)"
        : ""
    }`,
    other: comparison.kind === "build"
      ? `${commitOf(serverDir(comparison.main))} (${comparison.main})${
        comparison.comparedWithProjectAudit
          ? ", on a database with the project's audit trail set on it (BENCH_COMPARED_AUDIT=project: a measuring device, not a setting)"
          : ""
      }`
      : "the same build, on a database whose audit triggers are disabled (a measuring device, not a setting)"
  }
  const rows = <S>(
    measured: ReadonlyArray<{ scenario: S; project: ComparedRow["project"]; baseline: ComparedRow["project"] }>
  ) => measured.map(({ baseline, project, scenario }) => ({ scenario, project, other: baseline }))
  if (settings.phases.includes("throughput")) {
    console.log(`throughput: project vs ${comparison.label} on PostgreSQL, each on a database of its own`)
    results = {
      ...results,
      throughput: rows((await throughputPhase()).map((r) => ({ ...r, scenario: ref(r.scenario) })))
    }
  }
  if (settings.phases.includes("lists")) {
    console.log(
      `lists: every list endpoint at ${settings.listSizes.join(", ")} entries, project vs ${comparison.label}`
    )
    results = { ...results, lists: rows((await listsPhase()).map((r) => ({ ...r, scenario: listRef(r.scenario) }))) }
  }
  return writeComparison(results, settings.writeResults ? undefined : join(tmpDir, "results"))
}

const main = async () => {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (pnpm build)`)
  rmSync(tmpDir, { recursive: true, force: true })
  ensureDir(tmpDir)
  const started = Date.now()
  let results: Results = {
    environment: describeEnvironment(await postgresVersion()),
    settings: {
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.durationSeconds,
      rounds: settings.rounds,
      dataSet: settings.dataSet,
      listSizes: settings.listSizes
    }
  }
  if (settings.comparison !== undefined) {
    const written = await compare(settings.comparison, results)
    console.log(`\ndone in ${((Date.now() - started) / 60_000).toFixed(1)} min; wrote ${written.join(", ")}`)
    return
  }
  if (settings.phases.includes("throughput")) {
    console.log("throughput: project vs baseline on PostgreSQL")
    const rows = await throughputPhase()
    results = { ...results, throughput: rows.map((r) => ({ ...r, scenario: ref(r.scenario) })) }
  }
  if (settings.phases.includes("lists")) {
    console.log(
      `lists: every list endpoint at ${settings.listSizes.join(", ")} entries, project vs baseline on PostgreSQL`
    )
    const rows = await listsPhase()
    results = {
      ...results,
      lists: rows.map((r) => ({
        ...r,
        scenario: listRef(r.scenario)
      }))
    }
  }
  if (settings.phases.includes("queries")) {
    console.log("statements per request: 10 vs 1,000 related rows")
    results = { ...results, queries: await queryCountPhase() }
  }
  if (settings.phases.includes("plans")) {
    console.log(
      `plans: every read statement, rows fetched and pages touched under force_custom_plan vs force_generic_plan ` +
        `(passes at generic ≤ ${planStability.factor} × custom + ${planStability.slack}, in both)`
    )
    results = { ...results, plans: { ...planStability, dataSets: await plansPhase() } }
  }
  if (settings.phases.includes("memory")) {
    console.log(
      `resident memory after a small workload (${smallWorkloadSessions} sessions), embedded (first start, restarted; default and small-memory arguments, and the latter within 256 MiB) and PostgreSQL`
    )
    const smallWorkload = await smallWorkloadPhase()
    for (const run of smallWorkload) {
      console.log(
        `  ${run.database} (${run.start === "restarted" ? "restarted" : "first start"}, ${run.arguments} arguments${
          run.limitMiB === undefined ? "" : `, within ${run.limitMiB} MiB: ${run.withinLimit === true ? "yes" : "NO"}`
        }): ${run.rssMiB.toFixed(0)} MiB after, peak ${run.peakRssMiB.toFixed(0)} MiB`
      )
    }
    results = { ...results, smallWorkload }
    console.log("GET /session/all: time and peak memory by number of sessions")
    results = { ...results, listing: await memoryPhase() }
  }
  if (settings.phases.includes("embedded")) {
    console.log("the same scenarios and the list scenarios on the embedded database (no baseline)")
    const run = await embeddedPhase()
    results = {
      ...results,
      embedded: {
        peakRssMiB: run.peakRssMiB,
        results: run.results.map((r) => ({ ...r, scenario: ref(r.scenario) })),
        lists: run.lists.map((r) => ({ ...r, scenario: listRef(r.scenario) })),
        listSeconds: settings.embeddedListSeconds,
        listWarmupSeconds: Math.min(settings.warmupSeconds, settings.embeddedListWarmupSeconds)
      }
    }
  }
  if (settings.phases.includes("schedule")) {
    console.log("schedule: a month of a 200-athlete club's planning, and a group's calendar feed (project only)")
    const rows = await schedulePhase()
    results = { ...results, schedule: rows.map((r) => ({ ...r, scenario: ref(r.scenario) })) }
  }
  if (settings.phases.includes("attendance")) {
    console.log("attendance: bursts of replies to one full session (project only)")
    const attendance = await attendancePhase()
    for (const burst of attendance.bursts) {
      console.log(
        `  ${burst.title}: round ${burst.roundMillis.median.toFixed(0)} ms (median), p99 ${
          burst.latencyMillis.p99.toFixed(0)
        } ms, ${
          burst.serverCpuMicrosPerRequest.toFixed(0)
        } µs CPU a request, ${burst.correctRounds} of ${burst.rounds} rounds as the rules say`
      )
    }
    results = { ...results, attendance }
  }
  if (settings.phases.includes("membership")) {
    console.log(
      "membership: a federation's invitations, athletes' sessions and rosters, project vs baseline on PostgreSQL"
    )
    const run = await membershipPhase()
    if (run !== undefined) {
      results = {
        ...results,
        membership: { seed: run.seed, results: run.results.map((r) => ({ ...r, scenario: ref(r.scenario) })) }
      }
    }
  }
  if (settings.phases.includes("observability")) {
    console.log("what measuring costs: METRICS=off vs metrics on vs metrics and OTLP tracing, on PostgreSQL")
    const rows = await observabilityPhase()
    results = { ...results, observability: rows.map((r) => ({ ...r, scenario: ref(r.scenario) })) }
  }
  if (settings.phases.includes("allocations")) {
    console.log("allocations: bytes allocated per request of each throughput scenario, project vs baseline")
    const rows = await allocationsPhase()
    results = { ...results, allocations: rows.map((r) => ({ ...r, scenario: ref(r.scenario) })) }
  }
  if (settings.phases.includes("worstInputs")) {
    console.log(
      "worst inputs: each endpoint's worst documented input, /health/live and an unrelated coach's write meanwhile"
    )
    results = { ...results, worstInputs: await worstInputsPhase() }
  }
  if (settings.phases.includes("retention")) {
    console.log(
      `retention: the purge of ${settings.retentionEvents} outbox events, and requests meanwhile (PostgreSQL)`
    )
    results = { ...results, retention: await retentionPhase() }
  }
  const written = writeResults(results, settings.writeResults ? undefined : join(tmpDir, "results"))
  console.log(`\ndone in ${((Date.now() - started) / 60_000).toFixed(1)} min; wrote ${written.join(", ")}`)
  // A statement whose generic plan is bad fails the run, after the results are written.
  const unstable = plansFailed(results.plans?.dataSets ?? [])
  if (unstable.length > 0) {
    console.error(`plans: FAILED, ${unstable.length} read statement(s) not plan-stable or not checked (see results.md)`)
    process.exitCode = 1
  }
}

installSignalHandlers()
try {
  await main()
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await runCleanups()
}
