import * as Http from "node:http"
import type * as Net from "node:net"
import { runSql } from "../database/runSql.ts"
import { seed } from "../database/seed.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import { freePort } from "@club/test-support"
import { type Scenario, scenarios } from "../scenarios.ts"
import { startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"
import { profileArgs } from "./profileArgs.ts"
import { loadOptions } from "./loadOptions.ts"

/** The scenarios of this phase unless BENCH_SCENARIOS names others: a small read by id, a read with four path parameters, an RPC. */
const defaultScenarios = ["session-get", "athlete-between", "connect-list"]

export interface ObservabilityVariant {
  readonly name: string
  /** What the server was started with, beyond the usual. */
  readonly env: Readonly<Record<string, string>>
  readonly measurement: Measurement
}

export interface ObservabilityResult {
  readonly scenario: Scenario
  readonly variants: ReadonlyArray<ObservabilityVariant>
}

/**
 * An OTLP/HTTP receiver that reads and drops what it is sent, as a collector on the same host
 * would (its CPU is the bench's, not the server's), and counts the batches.
 */
const startOtlpSink = async () => {
  let batches = 0
  let bytes = 0
  const server = Http.createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.byteLength))
    request.on("end", () => {
      batches++
      response.writeHead(200, { "content-type": "application/x-protobuf" }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}`,
    received: () => ({ batches, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * What measuring costs: the same server three times on one database, side by side (ABBA…), with
 * METRICS=off (nothing measured, tracing unset: the service as it was), with metrics on (the
 * default), and with metrics on and spans exported over OTLP to a receiver on the same host.
 */
export const observabilityPhase = async (): Promise<ReadonlyArray<ObservabilityResult>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "observability")
  const sink = await startOtlpSink()
  const variants: ReadonlyArray<{ readonly name: string; readonly env: Record<string, string> }> = [
    { name: "off", env: { METRICS: "off" } },
    { name: "metrics", env: {} },
    { name: "tracing", env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } }
  ]
  try {
    const servers = []
    for (const variant of variants) {
      servers.push(
        await startProject({
          name: variant.name,
          port: await freePort(),
          database: { kind: "server", url: database.url },
          nodeArgs: profileArgs(`project-${variant.name}`),
          logLevel: settings.logLevel,
          env: variant.env
        })
      )
    }
    const seeded = await runSql(database.url, (sql) => seed(sql, settings.dataSet))
    const context = await prepareCallers(servers[0]!.url, seeded)
    const names = settings.scenarios ?? defaultScenarios
    const results: Array<ObservabilityResult> = []
    for (const scenario of scenarios.filter((s) => names.includes(s.name))) {
      const measured = await measureSideBySide(servers, scenario, context, loadOptions())
      results.push({
        scenario,
        variants: variants.map((variant, i) => ({ name: variant.name, env: variant.env, measurement: measured[i]! }))
      })
    }
    const { batches, bytes } = sink.received()
    console.log(`  OTLP receiver: ${batches} batches, ${(bytes / 1024 / 1024).toFixed(1)} MiB`)
    for (const server of servers) await server.child.stop()
    return results
  } finally {
    await sink.close()
    await database.drop()
  }
}
