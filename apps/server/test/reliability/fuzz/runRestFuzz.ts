import { percentile } from "../support/results.ts"
import { changedTables } from "../support/Sql.ts"
import type { RawClient, RawReply } from "../support/rawHttp.ts"
import type { Outcome } from "./contract.ts"
import { judge, type Secrets } from "./judge.ts"
import type { FuzzRequest } from "./requests.ts"

export interface FuzzRun {
  readonly requests: number
  readonly durationMs: number
  readonly byStatus: Record<string, number>
  readonly byEndpoint: Record<string, number>
  readonly byVariant: Record<string, number>
  readonly byCaller: Record<string, number>
  readonly accepted: number
  readonly refused: number
  /** Refused requests in batches where nothing was accepted that writes: the data was compared before and after. */
  readonly refusedVerifiedUnchanged: number
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number }
  /** Every answer that broke a rule; the first ones only, with their total and a tally by kind. */
  readonly violations: ReadonlyArray<string>
  readonly violationCount: number
  readonly violationKinds: Record<string, number>
}

export interface FuzzSetup {
  readonly client: RawClient
  readonly concurrency: number
  readonly secrets: Secrets
  /** A digest of the stored data: equal before and after a batch of refusals. */
  readonly digest: () => Promise<string>
}

const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1
}

/**
 * Requests run in batches of `concurrency` at once. Reads, writes built to be refused, and
 * plausible writes go in separate batches, and the data's digest is taken around each batch:
 * a batch that wrote nothing (every write refused) must leave it unchanged.
 */
const batchesOf = (requests: ReadonlyArray<FuzzRequest>, size: number): Array<Array<FuzzRequest>> => {
  const lanes = [
    requests.filter((request) => !request.writes),
    requests.filter((request) => request.writes && request.hostile),
    requests.filter((request) => request.writes && !request.hostile)
  ].map((lane) => Array.from({ length: Math.ceil(lane.length / size) }, (_, i) => lane.slice(i * size, (i + 1) * size)))
  const batches: Array<Array<FuzzRequest>> = []
  for (let i = 0; lanes.some((lane) => i < lane.length); i++) {
    for (const lane of lanes) if (i < lane.length) batches.push(lane[i]!)
  }
  return batches
}

export const runRestFuzz = async (requests: ReadonlyArray<FuzzRequest>, setup: FuzzSetup): Promise<FuzzRun> => {
  const byStatus: Record<string, number> = {}
  const byEndpoint: Record<string, number> = {}
  const byVariant: Record<string, number> = {}
  const byCaller: Record<string, number> = {}
  const latencies: Array<number> = []
  const violations: Array<string> = []
  let violationCount = 0
  const violationKinds: Record<string, number> = {}
  let accepted = 0
  let refused = 0
  let refusedVerifiedUnchanged = 0
  const violation = (message: string) => {
    violationCount++
    count(violationKinds, message.replace(/^[A-Z]+ \S+ /u, "").replace(/\d+/gu, "N").slice(0, 160))
    if (violations.length < 30) violations.push(message)
  }

  const started = performance.now()
  let digest = await setup.digest()
  for (const batch of batchesOf(requests, setup.concurrency)) {
    const results = await Promise.all(batch.map(async (request) => {
      let reply: RawReply
      try {
        reply = await setup.client.send(request)
      } catch (error) {
        violation(`${request.method} ${request.path.slice(0, 120)} [${request.variant}]: no answer (${String(error)})`)
        return { request, outcome: undefined, failed: true }
      }
      const outcome: Outcome | undefined = request.endpoint === undefined
        ? undefined
        : await request.endpoint.decode(reply, request.path)
      for (const problem of judge(request, reply, outcome, setup.secrets)) violation(problem)
      latencies.push(reply.ms)
      count(byStatus, String(reply.status))
      count(byEndpoint, request.endpoint?.id ?? "unrouted")
      count(byVariant, request.variant)
      count(byCaller, request.caller)
      return { request, outcome, failed: false }
    }))
    const wrote = results.some(({ outcome, request }) => request.writes && outcome?._tag === "Accepted")
    const refusedHere = results.filter(({ outcome }) => outcome?._tag === "Refused").length
    accepted += results.filter(({ outcome }) => outcome?._tag === "Accepted").length
    refused += refusedHere
    const after = await setup.digest()
    if (!wrote) {
      if (after !== digest) {
        violation(
          `the data changed during a batch in which every write was refused (${
            changedTables(digest, after).join(", ")
          }): ${batch.map((r) => `${r.method} ${r.path.slice(0, 60)} [${r.variant}]`).join("; ")}`
        )
      } else {
        refusedVerifiedUnchanged += refusedHere
      }
    }
    digest = after
  }
  return {
    requests: requests.length,
    durationMs: Math.round(performance.now() - started),
    byStatus,
    byEndpoint,
    byVariant,
    byCaller,
    accepted,
    refused,
    refusedVerifiedUnchanged,
    latencyMs: {
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(percentile(latencies, 100))
    },
    violations,
    violationCount,
    violationKinds
  }
}
