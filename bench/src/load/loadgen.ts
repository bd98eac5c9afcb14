// The load generator: its own process, so that its CPU is not the server's. Run by runLoad.ts with
// one JSON argument; prints one LoadResult as JSON on stdout.
import autocannon from "autocannon"
import { scenarioNamed } from "../scenarioNamed.ts"
import type { LoadContext } from "../scenarios.ts"
import type { LoadOptions, LoadResult } from "./LoadResult.ts"
import { scenarioRequests } from "./scenarioRequests.ts"

const { context, ...options } = JSON.parse(process.argv[2]!) as LoadOptions & { readonly context: LoadContext }
const scenario = scenarioNamed(options.scenario)

const run = (seconds: number) =>
  autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    timeout: 30,
    requests: scenarioRequests(scenario, context)
  })

const result = await run(options.durationSeconds)

const statusCodes: Record<string, number> = {}
for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count)
const expected = statusCodes[String(scenario.expectedStatus)] ?? 0
const answered = Object.values(statusCodes).reduce((sum, count) => sum + count, 0)

const report: LoadResult = {
  requestsPerSecond: expected / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  requests: answered,
  failures: answered - expected + result.errors,
  statusCodes,
  loadgenCpuMillis: (process.cpuUsage().user + process.cpuUsage().system) / 1000
}
process.stdout.write(JSON.stringify(report))
