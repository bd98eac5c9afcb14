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
}

/**
 * A warm-up run (discarded: the JIT, the pools and the caches settle), then the measured run, with
 * the server's CPU time read around it. The load generator is a process of its own each time.
 */
export const measure = async (
  server: ServerProcess,
  scenario: Scenario,
  context: LoadContext,
  options: MeasureOptions
): Promise<Measurement> => {
  const load = { url: server.url, scenario: scenario.name, connections: scenario.connections ?? options.connections }
  await waitForQuietMachine()
  if (options.warmupSeconds > 0) await runLoad({ ...load, durationSeconds: options.warmupSeconds }, context)
  const before = snapshot(server.child.pid)
  const result = await runLoad({ ...load, durationSeconds: options.durationSeconds }, context)
  const cpu = sharesBetween(before, snapshot(server.child.pid), result.loadgenCpuMillis)
  const perRequest = (millis: number) => (result.requests === 0 ? 0 : (millis * 1000) / result.requests)
  const measurement: Measurement = {
    ...result,
    serverCpuMicrosPerRequest: perRequest(cpu.serverMillis),
    postgresCpuMicrosPerRequest: perRequest(cpu.postgresMillis),
    otherCpuPercent: cpu.otherPercent
  }
  console.log(
    `  ${server.name.padEnd(9)} ${scenario.title.padEnd(48)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
      `  p50 ${String(result.p50Ms).padStart(4)} ms  p99 ${String(result.p99Ms).padStart(4)} ms` +
      `  cpu ${measurement.serverCpuMicrosPerRequest.toFixed(0).padStart(5)} µs/req` +
      `  other ${measurement.otherCpuPercent.toFixed(0).padStart(2)}%` +
      (result.failures > 0 ? `  FAILURES ${result.failures} ${JSON.stringify(result.statusCodes)}` : "")
  )
  return measurement
}
