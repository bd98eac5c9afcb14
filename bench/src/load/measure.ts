import { sharesBetween, snapshot } from "../process/machineCpu.ts"
import { waitForQuietMachine } from "../process/quietMachine.ts"
import type { LoadContext, Scenario } from "../scenarios.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import type { Measurement } from "./LoadResult.ts"
import { runLoad } from "./runLoad.ts"

export interface MeasureOptions {
  readonly connections: number
  readonly warmupSeconds: number
  readonly durationSeconds: number
  /** The measured time of each server is split into this many runs, alternating between servers. */
  readonly rounds: number
}

const loadFor = (server: ServerProcess, scenario: Scenario, options: MeasureOptions) => ({
  url: server.url,
  scenario: scenario.name,
  connections: scenario.connections ?? options.connections
})

/** One measured run, with the CPU time of the server, PostgreSQL and everything else read around it. */
const measureOnce = async (
  server: ServerProcess,
  scenario: Scenario,
  context: LoadContext,
  options: MeasureOptions,
  seconds: number
) => {
  const before = snapshot(server.child.pid)
  const result = await runLoad({ ...loadFor(server, scenario, options), durationSeconds: seconds }, context)
  const cpu = sharesBetween(before, snapshot(server.child.pid), result.loadgenCpuMillis)
  const perRequest = (millis: number) => (result.requests === 0 ? 0 : (millis * 1000) / result.requests)
  return {
    ...result,
    serverCpuMicrosPerRequest: perRequest(cpu.serverMillis),
    postgresCpuMicrosPerRequest: perRequest(cpu.postgresMillis),
    postgresCpuPercent: cpu.postgresPercent,
    otherCpuPercent: cpu.otherPercent
  } satisfies Measurement
}

const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

/** Runs of equal length as one: rates and percentiles averaged, counts summed, CPU per request weighted by requests. */
const combine = (runs: ReadonlyArray<Measurement>): Measurement => {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0)
  const weighted = (f: (r: Measurement) => number) =>
    requests === 0 ? 0 : runs.reduce((sum, r) => sum + f(r) * r.requests, 0) / requests
  const statusCodes: Record<string, number> = {}
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  }
  return {
    requestsPerSecond: mean(runs.map((r) => r.requestsPerSecond)),
    p50Ms: mean(runs.map((r) => r.p50Ms)),
    p99Ms: mean(runs.map((r) => r.p99Ms)),
    requests,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    statusCodes,
    loadgenCpuMillis: runs.reduce((sum, r) => sum + r.loadgenCpuMillis, 0),
    serverCpuMicrosPerRequest: weighted((r) => r.serverCpuMicrosPerRequest),
    postgresCpuMicrosPerRequest: weighted((r) => r.postgresCpuMicrosPerRequest),
    postgresCpuPercent: mean(runs.map((r) => r.postgresCpuPercent)),
    otherCpuPercent: mean(runs.map((r) => r.otherCpuPercent))
  }
}

const report = (server: ServerProcess, scenario: Scenario, m: Measurement) =>
  console.log(
    `  ${server.name.padEnd(9)} ${scenario.title.padEnd(48)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
      `  p50 ${m.p50Ms.toFixed(0).padStart(4)} ms  p99 ${m.p99Ms.toFixed(0).padStart(4)} ms` +
      `  cpu ${m.serverCpuMicrosPerRequest.toFixed(0).padStart(5)} µs/req` +
      `  other ${m.otherCpuPercent.toFixed(0).padStart(2)}%` +
      (m.failures > 0 ? `  FAILURES ${m.failures} ${JSON.stringify(m.statusCodes)}` : "")
  )

/**
 * Each server warmed up (a discarded run: the JIT, the pools and the caches settle), then measured
 * in `rounds` runs that alternate between the servers, so that whatever else the machine does
 * falls on all of them alike. The load generator is a process of its own for every run. `context`
 * is every server's caller, or each server's own (in the servers' order: servers on databases of
 * their own have callers of their own).
 */
export const measureSideBySide = async (
  servers: ReadonlyArray<ServerProcess>,
  scenario: Scenario,
  context: LoadContext | ReadonlyArray<LoadContext>,
  options: MeasureOptions
): Promise<ReadonlyArray<Measurement>> => {
  const contextOf = (i: number): LoadContext => (Array.isArray(context) ? context[i]! : context as LoadContext)
  await waitForQuietMachine()
  for (const [i, server] of servers.entries()) {
    if (options.warmupSeconds > 0) {
      await runLoad({ ...loadFor(server, scenario, options), durationSeconds: options.warmupSeconds }, contextOf(i))
    }
  }
  const runs = servers.map((): Array<Measurement> => [])
  const seconds = options.durationSeconds / options.rounds
  for (let round = 0; round < options.rounds; round++) {
    // ABBA order: neither server always goes first.
    const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => servers.length - 1 - i)
    for (const i of order) runs[i]!.push(await measureOnce(servers[i]!, scenario, contextOf(i), options, seconds))
  }
  const combined = runs.map(combine)
  combined.forEach((m, i) => report(servers[i]!, scenario, m))
  return combined
}
