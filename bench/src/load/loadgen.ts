// The load generator: its own process, so that its CPU is not the server's. Run by runLoad.ts with
// one JSON argument; prints one LoadResult as JSON on stdout.
import autocannon from "autocannon"
import { scenarioNamed } from "../scenarioNamed.ts"
import { driveGrpc } from "./grpc.ts"
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

/** What either driver measured: answers by status, seconds, latency percentiles, connection errors. */
const measured = async () => {
  if (scenario.protocol === "grpc") {
    const grpc = await driveGrpc(
      { url: options.url, connections: options.connections, seconds: options.durationSeconds, token: context.token },
      () => scenario.request(context)
    )
    return { ...grpc, errors: 0 }
  }
  const result = await run(options.durationSeconds)
  const statusCodes: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count)
  return {
    statusCodes,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors
  }
}

const result = await measured()
const expected = result.statusCodes[String(scenario.expectedStatus)] ?? 0
const answered = Object.values(result.statusCodes).reduce((sum, count) => sum + count, 0)

const report: LoadResult = {
  requestsPerSecond: expected / result.seconds,
  p50Ms: result.p50Ms,
  p99Ms: result.p99Ms,
  requests: answered,
  failures: answered - expected + result.errors,
  statusCodes: result.statusCodes,
  loadgenCpuMillis: (process.cpuUsage().user + process.cpuUsage().system) / 1000
}
process.stdout.write(JSON.stringify(report))
