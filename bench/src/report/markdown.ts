import { smallWorkloadSessions } from "../phases/smallWorkload.ts"
import { type ProbeCount, relatedRows } from "../phases/queryCounts.ts"
import { statementSummary } from "../queries/statementSummary.ts"
import { worstInputTargets } from "../phases/worstInputs.ts"
import type { Results } from "./Results.ts"
import { linearity, perEntryVerdict, targets, throughputVerdict } from "./targets.ts"

const n0 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 0 })
const n2 = (x: number) => x.toFixed(2)
const mark = (pass: boolean | undefined) => (pass === undefined ? "—" : pass ? "pass" : "**FAIL**")
const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`

const throughputTable = (results: NonNullable<Results["throughput"]>) => {
  const lines = [
    row([
      "Scenario",
      "req/s project",
      "req/s baseline",
      "ratio",
      "p50 ms project / baseline",
      "p99 ms project / baseline",
      "p99 ratio",
      "server CPU µs/req project / baseline",
      "other CPU % project / baseline",
      "target",
      "result"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---", "---"])
  ]
  for (const { baseline, project, scenario } of results) {
    const ratio = project.requestsPerSecond / baseline.requestsPerSecond
    const p99Ratio = project.p99Ms / baseline.p99Ms
    const verdict = throughputVerdict(scenario.kind, ratio, p99Ratio)
    const failures = project.failures + baseline.failures
    lines.push(row([
      scenario.title + (scenario.kind === "connect" ? " (Connect JSON)" : ""),
      n0(project.requestsPerSecond),
      n0(baseline.requestsPerSecond),
      n2(ratio),
      `${n0(project.p50Ms)} / ${n0(baseline.p50Ms)}`,
      `${n0(project.p99Ms)} / ${n0(baseline.p99Ms)}`,
      n2(p99Ratio),
      `${n0(project.serverCpuMicrosPerRequest)} / ${n0(baseline.serverCpuMicrosPerRequest)}`,
      `${n0(project.otherCpuPercent)} / ${n0(baseline.otherCpuPercent)}`,
      verdict.text,
      mark(verdict.pass) + (failures > 0 ? ` (${failures} failed requests)` : "")
    ]))
  }
  return lines.join("\n")
}

const listsTable = (rows: NonNullable<Results["lists"]>) => {
  const lines = [
    row([
      "Endpoint",
      "items",
      "req/s project / baseline",
      "ratio",
      "p99 ms project / baseline",
      "p99 ratio",
      "server CPU µs/req project / baseline",
      "server CPU µs/item project / baseline",
      "per-item ratio",
      "PostgreSQL CPU % project / baseline",
      "other CPU % project / baseline",
      "target",
      "result"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---", "---"])
  ]
  for (const { baseline, project, scenario } of rows) {
    const perItem = (m: typeof project) => m.serverCpuMicrosPerRequest / scenario.items
    const verdict = throughputVerdict(
      scenario.kind,
      project.requestsPerSecond / baseline.requestsPerSecond,
      project.p99Ms / baseline.p99Ms
    )
    const failures = project.failures + baseline.failures
    lines.push(row([
      scenario.title + (scenario.kind === "connect" ? " (Connect JSON)" : ""),
      n0(scenario.items),
      `${n0(project.requestsPerSecond)} / ${n0(baseline.requestsPerSecond)}`,
      n2(project.requestsPerSecond / baseline.requestsPerSecond),
      `${n0(project.p99Ms)} / ${n0(baseline.p99Ms)}`,
      n2(project.p99Ms / baseline.p99Ms),
      `${n0(project.serverCpuMicrosPerRequest)} / ${n0(baseline.serverCpuMicrosPerRequest)}`,
      `${n2(perItem(project))} / ${n2(perItem(baseline))}`,
      n2(perItem(project) / perItem(baseline)),
      `${n0(project.postgresCpuPercent)} / ${n0(baseline.postgresCpuPercent)}`,
      `${n0(project.otherCpuPercent)} / ${n0(baseline.otherCpuPercent)}`,
      verdict.text,
      mark(verdict.pass) + (failures > 0 ? ` (${failures} failed requests)` : "")
    ]))
  }
  return lines.join("\n")
}

/**
 * What one more entry costs, from the smallest and the largest answer of each endpoint: the CPU per
 * request of a large answer divided by its length still carries the request's fixed cost.
 */
const marginalTable = (rows: NonNullable<Results["lists"]>) => {
  const lines = [
    row(["Endpoint", "entries", "server CPU µs per further entry project / baseline", "ratio", "target", "result"]),
    row(["---", "---:", "---:", "---:", "---", "---"])
  ]
  for (const endpoint of new Set(rows.map((r) => r.scenario.endpoint))) {
    const sizes = rows.filter((r) => r.scenario.endpoint === endpoint).sort((a, b) =>
      a.scenario.items - b.scenario.items
    )
    const smallest = sizes[0]
    const largest = sizes[sizes.length - 1]
    if (smallest === undefined || largest === undefined || largest.scenario.items === smallest.scenario.items) continue
    const further = largest.scenario.items - smallest.scenario.items
    const marginal = (server: "project" | "baseline") =>
      (largest[server].serverCpuMicrosPerRequest - smallest[server].serverCpuMicrosPerRequest) / further
    lines.push(row([
      largest.scenario.title + (largest.scenario.kind === "connect" ? " (Connect JSON)" : ""),
      `${n0(smallest.scenario.items)} → ${n0(largest.scenario.items)}`,
      `${n2(marginal("project"))} / ${n2(marginal("baseline"))}`,
      n2(marginal("project") / marginal("baseline")),
      perEntryVerdict(marginal("project") / marginal("baseline")).text,
      mark(perEntryVerdict(marginal("project") / marginal("baseline")).pass)
    ]))
  }
  return lines.join("\n")
}

/**
 * A request's statements do not grow with the rows it touches; a write's are at most the
 * baseline's + 1 (issue 16). The project's include its authentication lookup.
 */
const statementsWithinTarget = (q: ProbeCount) =>
  q.project.small === q.project.large &&
  (!q.write || (q.project.small <= q.baseline.small + 1 && q.project.large <= q.baseline.large + 1))

const queriesTable = (queries: NonNullable<Results["queries"]>) => {
  const lines = [
    row([
      "Request",
      `project, ${relatedRows.small} related rows`,
      `project, ${n0(relatedRows.large)} related rows`,
      `baseline, ${relatedRows.small}`,
      `baseline, ${n0(relatedRows.large)}`,
      "result"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---"])
  ]
  for (const q of queries) {
    lines.push(
      row([
        q.title,
        q.project.small,
        q.project.large,
        q.baseline.small,
        q.baseline.large,
        mark(statementsWithinTarget(q))
      ])
    )
  }
  return lines.join("\n")
}

const sentText = { named: "prepared", unnamed: "sent unprepared", simple: "simple query" } as const

const verdictText = {
  pass: "pass",
  FAIL: "**FAIL**",
  flagged: "flagged (sent unprepared)",
  unchecked: "**not checked**"
}

const plansTable = (plans: NonNullable<Results["plans"]>) => {
  const lines = [
    row([
      "Data set",
      "Statement",
      "sent",
      "read by",
      "rows fetched custom / generic",
      "pages custom / generic",
      "result"
    ]),
    row(["---", "---", "---", "---", "---:", "---:", "---"])
  ]
  for (const { checks, dataSet } of plans.dataSets) {
    for (const check of checks) {
      const pair = (f: (cost: NonNullable<typeof check.custom>) => number) =>
        check.custom === undefined || check.generic === undefined
          ? "—"
          : `${n0(f(check.custom))} / ${n0(f(check.generic))}`
      lines.push(row([
        dataSet,
        `\`${statementSummary(check.text, 150).replaceAll("|", "\\|").replaceAll("`", "'")}\``,
        sentText[check.sent],
        check.reads.join("; "),
        pair((cost) => cost.rows),
        pair((cost) => cost.pages),
        verdictText[check.verdict] + (check.unchecked === undefined ? "" : ` (${check.unchecked})`)
      ]))
    }
  }
  return lines.join("\n")
}

const listingTable = (steps: NonNullable<Results["listing"]>) => {
  const lines = [
    row([
      "Sessions",
      "answer",
      "project: time (median of 3)",
      "ms per 1,000 sessions",
      "peak RSS (idle before)",
      "baseline: time",
      "baseline: peak RSS"
    ]),
    row(["---:", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const s of steps) {
    lines.push(row([
      n0(s.sessions),
      `${(s.project.bytes / 1e6).toFixed(1)} MB`,
      `${n0(s.project.medianMs)} ms`,
      n0((s.project.medianMs / s.sessions) * 1000),
      `${n0(s.project.peakRssMiB)} MiB (${n0(s.project.idleRssMiB)})`,
      `${n0(s.baseline.medianMs)} ms`,
      `${n0(s.baseline.peakRssMiB)} MiB`
    ]))
  }
  const largest = steps.find((s) => s.sessions === targets.listing.sessions) ?? steps[steps.length - 1]
  const linear = linearity(steps.map((s) => ({ sessions: s.sessions, ms: s.project.medianMs })))
  const memoryPass = largest === undefined
    ? undefined
    : largest.project.peakRssMiB * 2 ** 20 < targets.listing.maxPeakRssMB * 1e6
  return [
    lines.join("\n"),
    "",
    `- Peak RSS at ${n0(largest?.sessions ?? 0)} sessions below ${targets.listing.maxPeakRssMB} MB ` +
    `(${n0(targets.listing.maxPeakRssMB * 1e6 / 2 ** 20)} MiB): ` +
    `${n0(largest?.project.peakRssMiB ?? 0)} MiB, ${mark(memoryPass)}`,
    `- Time grows linearly (time per session at the largest size within ${targets.listing.maxPerSessionTimeSpread}× of the smallest): ` +
    `${n2(linear.spread)}×, ${mark(linear.pass)}`
  ].join("\n")
}

const smallWorkloadTable = (runs: NonNullable<Results["smallWorkload"]>) => {
  const { maxPeakRssMiB } = targets.smallWorkload
  const lines = [
    row([
      "Database",
      "start",
      "Node arguments",
      "RSS after",
      "peak RSS",
      `peak ≤ ${maxPeakRssMiB} MiB (embedded)`,
      `within a ${maxPeakRssMiB} MiB cgroup`
    ])
  ]
  lines.push(row(["---", "---", "---", "---:", "---:", "---", "---"]))
  for (const run of runs) {
    const limited = run.limitMiB !== undefined
    lines.push(row([
      run.database,
      // Runs of an earlier bench measured first starts only, with the server's own arguments.
      run.start ?? "first",
      run.arguments ?? "default",
      limited && run.withinLimit !== true ? "–" : `${n0(run.rssMiB)} MiB`,
      limited && run.withinLimit !== true ? "–" : `${n0(run.peakRssMiB)} MiB`,
      limited ? "(limited)" : run.database === "embedded" ? mark(run.peakRssMiB <= maxPeakRssMiB) : "no target",
      limited ? mark(run.withinLimit === true) : "not run"
    ]))
  }
  return lines.join("\n") + "\n\n" +
    "Resident memory (RSS) counts the pages of the `node` binary that the process has read (about 60 MiB), " +
    "which the kernel drops and reads again under a memory limit. Within a limit (a container's `--memory`, " +
    "swap included) what must fit is the rest; the last column says whether the server served the workload " +
    "there with nothing killed (docs/decisions/0332)."
}

const embeddedTable = (embedded: NonNullable<Results["embedded"]>) => {
  const lines = [
    row(["Scenario", "req/s", "p50 ms", "p99 ms", "server CPU µs/req", "other CPU %", "failed requests"]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const { project, scenario } of embedded.results) {
    lines.push(
      row([
        scenario.title,
        n0(project.requestsPerSecond),
        n0(project.p50Ms),
        n0(project.p99Ms),
        n0(project.serverCpuMicrosPerRequest),
        n0(project.otherCpuPercent),
        project.failures
      ])
    )
  }
  return `${lines.join("\n")}\n\nPeak RSS of the server over the whole embedded run: ${n0(embedded.peakRssMiB)} MiB.`
}

const embeddedListsTable = (rows: NonNullable<NonNullable<Results["embedded"]>["lists"]>) => {
  const lines = [
    row([
      "Endpoint",
      "items",
      "req/s",
      "p99 ms",
      "server CPU µs/req",
      "server CPU µs/item",
      "other CPU %",
      "failed requests"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const { project, scenario } of rows) {
    lines.push(row([
      scenario.title + (scenario.kind === "connect" ? " (Connect JSON)" : ""),
      n0(scenario.items),
      n0(project.requestsPerSecond),
      n0(project.p99Ms),
      n0(project.serverCpuMicrosPerRequest),
      n2(project.serverCpuMicrosPerRequest / scenario.items),
      n0(project.otherCpuPercent),
      project.failures
    ]))
  }
  return lines.join("\n")
}

const allocationsTable = (rows: NonNullable<Results["allocations"]>) => {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1)
  const lines = [
    row([
      "Scenario",
      "KB allocated a request, project / baseline",
      "ratio",
      "project: largest by package, KB",
      "project: largest by function, KB"
    ]),
    row(["---", "---:", "---:", "---", "---"])
  ]
  for (const { baseline, project, scenario } of rows) {
    lines.push(row([
      scenario.title,
      `${kb(project.bytesPerRequest)} / ${kb(baseline.bytesPerRequest)}`,
      n2(project.bytesPerRequest / baseline.bytesPerRequest),
      project.byPackage.slice(0, 4).map((p) => `${p.name} ${kb(p.bytesPerRequest)}`).join(", "),
      project.byFunction.slice(0, 3).map((f) => `\`${f.name}\` ${kb(f.bytesPerRequest)}`).join(", ")
    ]))
  }
  return lines.join("\n")
}

const observabilityTable = (rows: NonNullable<Results["observability"]>) => {
  const lines = [
    row([
      "Scenario",
      "Server",
      "req/s",
      "vs off",
      "p50 ms",
      "p99 ms",
      "server CPU µs/req",
      "vs off",
      "other CPU %",
      "failed requests"
    ]),
    row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const { scenario, variants } of rows) {
    const off = variants.find((v) => v.name === "off")?.measurement
    for (const { name, measurement: m } of variants) {
      lines.push(row([
        scenario.title,
        name,
        n0(m.requestsPerSecond),
        off === undefined ? "" : `${n2(m.requestsPerSecond / off.requestsPerSecond)}×`,
        n0(m.p50Ms),
        n0(m.p99Ms),
        n0(m.serverCpuMicrosPerRequest),
        off === undefined ? "" : `${n2(m.serverCpuMicrosPerRequest / off.serverCpuMicrosPerRequest)}×`,
        n0(m.otherCpuPercent),
        m.failures
      ]))
    }
  }
  return lines.join("\n")
}

const attendanceTable = (result: NonNullable<Results["attendance"]>) => {
  const lines = [
    row([
      "Burst",
      "requests a round",
      "round ms, median / max",
      "p50 ms",
      "p99 ms",
      "server CPU µs/req",
      "rounds as the rules say"
    ]),
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const burst of result.bursts) {
    lines.push(row([
      burst.title,
      burst.requestsPerRound,
      `${n0(burst.roundMillis.median)} / ${n0(burst.roundMillis.max)}`,
      n0(burst.latencyMillis.p50),
      n0(burst.latencyMillis.p99),
      n0(burst.serverCpuMicrosPerRequest),
      `${burst.correctRounds} of ${burst.rounds}`
    ]))
  }
  return lines.join("\n")
}

const retentionTable = (result: NonNullable<Results["retention"]>) => {
  const lines = [
    row(["", "value"]),
    row(["---", "---:"]),
    row(["events purged (each with its delivery)", n0(result.purged)]),
    row([
      "batches (rows each, pause between)",
      `${n0(result.batches)} (${n0(result.batchSize)}, ${result.pauseMs} ms)`
    ]),
    row(["purge, s", result.seconds.toFixed(1)]),
    row(["rows/s", n0(result.rowsPerSecond)]),
    row([
      "batch ms, median / longest",
      `${result.batchMillis.median.toFixed(1)} / ${result.batchMillis.max.toFixed(1)}`
    ]),
    row([
      `GET /users/all before (${result.clients} callers, 5 s): p50 / p99 / max ms`,
      `${result.before.p50.toFixed(1)} / ${result.before.p99.toFixed(1)} / ${result.before.max.toFixed(1)}`
    ]),
    row([
      `GET /users/all during the purge: p50 / p99 / max ms (${n0(result.during.requests)} requests)`,
      `${result.during.p50.toFixed(1)} / ${result.during.p99.toFixed(1)} / ${result.during.max.toFixed(1)}`
    ])
  ]
  return lines.join("\n")
}

const scheduleTable = (rows: NonNullable<Results["schedule"]>) => {
  const lines = [
    row([
      "Scenario",
      "Answer",
      "req/s",
      "p50 ms",
      "p99 ms",
      "server CPU µs/req",
      "PostgreSQL CPU %",
      "failed requests"
    ]),
    row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:"])
  ]
  for (const { answer, project: m, scenario } of rows) {
    lines.push(row([
      scenario.title,
      answer,
      n0(m.requestsPerSecond),
      n0(m.p50Ms),
      n0(m.p99Ms),
      n0(m.serverCpuMicrosPerRequest),
      n0(m.postgresCpuPercent),
      m.failures
    ]))
  }
  return lines.join("\n")
}

const membershipTable = (rows: NonNullable<Results["membership"]>["results"]) => {
  const lines = [
    row([
      "Scenario",
      "answer",
      "req/s project / baseline",
      "ratio",
      "p99 ms project / baseline",
      "p99 ratio",
      "server CPU µs/req project / baseline",
      "PostgreSQL CPU % project / baseline",
      "other CPU % project / baseline",
      "target",
      "result"
    ]),
    row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---", "---"])
  ]
  for (const { answer, baseline, project, scenario } of rows) {
    const verdict = throughputVerdict(
      scenario.kind,
      project.requestsPerSecond / baseline.requestsPerSecond,
      project.p99Ms / baseline.p99Ms
    )
    const failures = project.failures + baseline.failures
    lines.push(row([
      scenario.title,
      answer,
      `${n0(project.requestsPerSecond)} / ${n0(baseline.requestsPerSecond)}`,
      n2(project.requestsPerSecond / baseline.requestsPerSecond),
      `${n0(project.p99Ms)} / ${n0(baseline.p99Ms)}`,
      n2(project.p99Ms / baseline.p99Ms),
      `${n0(project.serverCpuMicrosPerRequest)} / ${n0(baseline.serverCpuMicrosPerRequest)}`,
      `${n0(project.postgresCpuPercent)} / ${n0(baseline.postgresCpuPercent)}`,
      `${n0(project.otherCpuPercent)} / ${n0(baseline.otherCpuPercent)}`,
      verdict.text,
      mark(verdict.pass) + (failures > 0 ? ` (${failures} failed requests)` : "")
    ]))
  }
  return lines.join("\n")
}

/** results/results.md: the tables of one run. */
const worstInputsTable = (runs: NonNullable<Results["worstInputs"]>) => {
  const lines = [
    row([
      "Database",
      "Worst input",
      "documented bound",
      "status",
      "answer",
      "request ms",
      "event loop max ms",
      "lock wait max ms",
      "/health/live max ms (probes)",
      "writer max ms (probes)",
      "runs",
      `event loop ≤ ${worstInputTargets.eventLoopMs} ms`,
      `shared locks ≤ ${worstInputTargets.sharedLockMs} ms`
    ]),
    row(["---", "---", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---", "---"])
  ]
  for (const run of runs) {
    for (const r of run.rows) {
      const idle = r.name === "idle"
      lines.push(row([
        run.database,
        r.title,
        r.bound,
        r.statuses.join(", ") || "—",
        r.answer || "—",
        idle ? "—" : n0(r.requestMillis),
        n0(r.eventLoopMaxMillis),
        r.lockWaitMaxMillis === undefined ? "—" : n0(r.lockWaitMaxMillis),
        `${n0(r.liveMaxMillis)} (${r.liveProbes})`,
        `${n0(r.writerMaxMillis)} (${r.writerProbes})`,
        r.runs,
        idle ? "—" : mark(r.eventLoopPass),
        idle ? "—" : mark(r.sharedLockPass)
      ]))
    }
  }
  return lines.join("\n")
}

export const renderMarkdown = (results: Results): string => {
  const { environment: env, settings } = results
  const sections = [
    "# Benchmark results",
    "",
    `Run ${env.date} on ${env.cores} × ${env.cpu}, ${env.memoryGiB} GiB, Node ${env.node}, ${env.postgres}; commit ${env.commit}.`,
    `Each scenario: ${settings.warmupSeconds} s warm-up, then ${settings.durationSeconds} s measured per server in ${settings.rounds} runs ` +
    "alternating between project and baseline (so both meet the same machine; p50 and p99 are the runs' mean), " +
    `autocannon 9 in a process of its own, ${settings.connections} connections unless the scenario says otherwise ` +
    "(GET /session/all 10, login 4). Server CPU is the server process's user + system time per answered request. " +
    "Other CPU is the share of the machine used meanwhile by processes outside the measurement (anything but the server, " +
    "PostgreSQL and the load generator); each run waits up to 20 s for the machine to be quiet first.",
    `Data: ${
      Object.entries(settings.dataSet).map(([k, v]) => `${n0(v)} ${k}`).join(", ")
    } (10 athletes and 5 activities per session).`,
    "Produced by `pnpm bench`; see bench/README.md.",
    ...(results.remeasured ?? []).map((r) =>
      `Measured again by a partial run on ${r.environment.date} (commit ${r.environment.commit}, ${r.settings}): ${r.what}.`
    ),
    ""
  ]
  if (results.throughput !== undefined) {
    sections.push(
      "## Throughput and latency: project vs bare node:http baseline (PostgreSQL 15)",
      "",
      throughputTable(results.throughput),
      ""
    )
  }
  if (results.lists !== undefined) {
    sections.push(
      "## List answers of 1, 50 and 500 entries: project vs baseline (PostgreSQL 15)",
      "",
      listsTable(results.lists),
      "",
      "Each size runs on a database of its own holding exactly that many coaches, athletes, tasks and users, and an " +
        "athlete with that many sessions, the first of them with that many activities; each answer's length is checked " +
        "once on both servers before measuring. The caller is the admin. Server CPU per item is the CPU per request " +
        "divided by the entries of the answer. PostgreSQL CPU is the share of the whole machine its processes used " +
        "during the run: near 100%, the database, not the server, set the pace.",
      "",
      marginalTable(results.lists),
      ""
    )
  }
  const embeddedLists = results.embedded?.lists ?? []
  if (embeddedLists.length > 0) {
    sections.push(
      "## The same list answers on the embedded database (DATA_DIR; project only, no target)",
      "",
      embeddedListsTable(embeddedLists),
      "",
      `Each size on an embedded database of its own, seeded as the lists phase seeds PostgreSQL; ${
        results.embedded?.listWarmupSeconds ?? "?"
      } s ` +
        `warm-up, then ${results.embedded?.listSeconds ?? "?"} s measured in one run (shorter than the PostgreSQL ` +
        "runs: there is no baseline to alternate with). The embedded database runs inside the server's process, so " +
        "its work is in the server CPU.",
      ""
    )
  }
  if (results.queries !== undefined) {
    sections.push(
      "## Statements per request (counted on the wire)",
      "",
      queriesTable(results.queries),
      "",
      "The project's counts include the caller's authentication lookup (the request is sent after its 1 s cache " +
        "expired). A request passes when its count does not grow with the rows it touches, and a write's is at most " +
        "the baseline's + 1.",
      ""
    )
  }
  if (results.plans !== undefined) {
    const { factor, slack } = results.plans
    sections.push(
      "## Plan stability of every read statement: custom against generic plan",
      "",
      plansTable(results.plans),
      "",
      "Every read the bench knows was sent once through a proxy that records each statement with the values it was " +
        "bound to; each distinct read statement was then prepared with those values and run by " +
        "`EXPLAIN (ANALYZE, BUFFERS) EXECUTE` under `plan_cache_mode = force_custom_plan` and `force_generic_plan`. " +
        "Rows fetched: over the nodes that read a table, the rows returned and removed by a filter or a recheck, times " +
        "the loops. Pages: the shared buffers the plan hit or read. A statement passes when its generic plan's rows " +
        `and pages are each at most ${factor} × the custom plan's + ${slack}. A prepared statement that does not ` +
        "**FAIL**s (PostgreSQL may run it with that plan after five executions); one sent unprepared is flagged but " +
        "does not fail, as PostgreSQL plans it with its values on every call and never runs the generic plan; a " +
        "statement that could not be replayed is not checked and fails.",
      ""
    )
  }
  if (results.smallWorkload !== undefined) {
    sections.push(
      `## Resident memory after a small workload (${smallWorkloadSessions} sessions, a new database, and the embedded one restarted)`,
      "",
      smallWorkloadTable(results.smallWorkload),
      ""
    )
  }
  if (results.listing !== undefined) {
    sections.push("## GET /session/all at 10k / 50k / 100k sessions", "", listingTable(results.listing), "")
  }
  if (results.schedule !== undefined) {
    sections.push(
      "## Schedule (issue 17): a month of a 200-athlete club, and a calendar feed poll (project only, no target)",
      "",
      scheduleTable(results.schedule),
      ""
    )
  }
  if (results.attendance !== undefined) {
    sections.push(
      `## Attendance (issue 18): bursts of replies to one session of ${results.attendance.capacity} places and ${results.attendance.athletes} athletes (project only, no target)`,
      "",
      attendanceTable(results.attendance),
      ""
    )
  }
  if (results.membership !== undefined) {
    const { seed } = results.membership
    sections.push(
      "## Membership at a federation's size (issue 41): project vs baseline (PostgreSQL 15)",
      "",
      membershipTable(results.membership.results),
      "",
      `A fresh database seeded with a federation (\`src/database/seedFederation.ts\`): ${n0(seed.groups)} groups ` +
        `(${n0(seed.teams)} teams), ${n0(seed.athletes)} athletes in two teams each (${n0(seed.memberships)} ` +
        `memberships: one open, and in the other team one ended and a later one), ${n0(seed.sessions)} sessions ` +
        `(1,000 a day for a month, each of a team, ${n0(seed.sessionAthletes)} own athletes in all); seeded in ` +
        `${n0(seed.seconds)} s. The caller is a coach; each request draws its session, athlete or team. Before a ` +
        "scenario is measured, five drawn requests and one page cut to 3 entries (its sealed `nextCursor` included) " +
        "are answered the same by both servers, field for field; the baseline runs the project's statement, text " +
        "for text (`src/servers/baseline/statements.ts`).",
      ""
    )
  }
  if (results.retention !== undefined) {
    sections.push(
      `## Retention (issue 43): the purge of ${
        n0(results.retention.events)
      } outbox events (PostgreSQL, project only, no target)`,
      "",
      retentionTable(results.retention),
      "",
      `Seeded with \`generate_series\` in ${n0(results.retention.seedSeconds)} s: events a year old, each delivered ` +
        "(its delivery done) to one webhook. Core's `purgeExpired` over the adapter's statements, from the bench's " +
        "process on one connection, as an instance runs it beside its requests; the project's own purge of events " +
        "is off meanwhile. Each batch is one `DELETE ... LIMIT n FOR UPDATE SKIP LOCKED` committing by itself.",
      ""
    )
  }
  if (results.observability !== undefined) {
    sections.push(
      "## What measuring costs: METRICS=off, metrics on (the default), metrics and OTLP tracing",
      "",
      observabilityTable(results.observability),
      ""
    )
  }
  if (results.allocations !== undefined) {
    sections.push(
      "## Bytes allocated per request: project vs baseline (PostgreSQL; no target)",
      "",
      allocationsTable(results.allocations),
      "",
      "V8's sampling heap profiler, over each server's inspector, kept on while " +
        `${results.allocations[0]?.project.requests.toLocaleString("en-US") ?? "the"} requests of the scenario ran ` +
        "(after half as many to warm up), counting what the garbage collector freed meanwhile: nearly all of a " +
        "request's objects are garbage once it is answered (`src/load/allocationSampler.ts`). A sample every 512 " +
        "bytes on average, so the figures are estimates; runs agree within about 5%.",
      ""
    )
  }
  if (results.worstInputs !== undefined) {
    sections.push(
      "## Worst documented inputs (issue 37): what another client meets meanwhile",
      "",
      worstInputsTable(results.worstInputs),
      "",
      ...results.worstInputs.flatMap((run) =>
        run.rows.filter((r) => (r.lockWaiter ?? "") !== "").map((r) =>
          `- Longest lock wait, ${run.database}, ${r.name}: ${n0(r.lockWaitMaxMillis ?? 0)} ms on \`${r.lockWaiter}\``
        )
      ),
      "",
      "Each case on the throughput data set, one server per database, the cases in turn. The targets are judged " +
        "on two figures: **event loop max**, the server's own longest event-loop delay while the case ran " +
        "(prom-client's `nodejs_eventloop_lag_max_seconds`, node's monitorEventLoopDelay at 10 ms resolution, " +
        "reset by a scrape of `/metrics` just before and read just after), and on PostgreSQL **lock wait max**, " +
        "the longest any statement of the database was seen waiting for a lock (`pg_stat_activity`, " +
        "`wait_event_type = 'Lock'`, sampled every 10 ms). Meanwhile, from a process of their own, another " +
        "client asks `/health/live` back to back and an unrelated coach writes `POST /planning/sessions` back to " +
        "back (for itself alone, at a new time each: the write takes the locks every session create takes, so " +
        "there is a waiter to see); their slowest answers are what a client met, machine noise included (compare " +
        "the idle row). A read, and a write made anew at another time each run, is run three times " +
        "(`BENCH_WORST_REPEATS`) and its least disturbed run kept: a " +
        "real hold shows in every run, the noise of a shared machine not. The lock target applies on " +
        "PostgreSQL; the embedded database has one connection, which every request takes in turn.",
      ""
    )
  }
  if (results.embedded !== undefined) {
    sections.push(
      "## The same scenarios on the embedded database (DATA_DIR; no target)",
      "",
      embeddedTable(results.embedded),
      ""
    )
  }
  return sections.join("\n")
}
