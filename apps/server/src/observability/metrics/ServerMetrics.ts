import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"
import type { NodeRequest, NodeResponse } from "../../Listener.ts"
import type { RouteClassifier } from "./Routes.ts"
import { recordRpcAnswer, rpcCode } from "./rpcOutcome.ts"

/** The connection pool's use, read at each scrape (`PgClient.poolStats`). */
export interface PoolStats {
  readonly idle: number
  readonly used: number
  readonly pending: number
  readonly max: number
}

/**
 * Request latencies from well under a millisecond (a read answered from the credentials cache) to
 * the 10 s a request may wait for its headers: the buckets of OpenTelemetry's HTTP semantic
 * conventions, with 1 ms and 2.5 ms in front.
 */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

/** Read by the listener: every request but scrapes is observed once, when its exchange closes. */
export interface ServerMetrics {
  readonly observe: (request: NodeRequest, response: NodeResponse) => void
  /** The exposition: Prometheus text format, version 0.0.4. */
  readonly render: () => Promise<string>
  readonly contentType: string
}

/** The label of a request whose answer never began (its client went away, or it was cut at shutdown). */
export const noAnswer = "none"

interface Observer {
  observe(value: number): void
}

type LabelValue = string | number

/**
 * The labelled children of a histogram, found by the label values themselves, one level per label:
 * prom-client's `labels(...)` would validate and hash the labels on every call, and a key joined
 * from them would be a new string to build and hash on every request. Values are the status code
 * as a number, and strings the classifier keeps (method and route labels), so each level is a
 * lookup of a value already hashed. A value is written as text only when its child is made.
 */
const childTree = <Names extends string>(histogram: Histogram<Names>) => {
  const root = new Map<LabelValue, unknown>()
  return (...values: Array<LabelValue>): Observer => {
    let level = root
    const last = values.length - 1
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Map<LabelValue, unknown> | undefined
      if (next === undefined) {
        next = new Map()
        level.set(values[i]!, next)
      }
      level = next
    }
    let child = level.get(values[last]!) as Observer | undefined
    if (child === undefined) {
      child = histogram.labels(...values.map(String))
      level.set(values[last]!, child)
    }
    return child
  }
}

/**
 * The server's metrics in a registry of their own (prom-client's: its exposition, its histograms,
 * its process metrics): HTTP requests by method, route template and status; TodoService calls by
 * service, method, protocol and code; the database pool's connections; the process (CPU, memory,
 * event loop, GC, handles, as prom-client's default metrics).
 */
export const makeServerMetrics = (
  classify: RouteClassifier,
  poolStats: Effect.Effect<PoolStats> | undefined
): ServerMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })

  const httpDuration = new Histogram({
    name: "http_server_request_duration_seconds",
    help:
      "HTTP requests by method, route template (unmatched: no route) and status (none: no answer began), from the request's arrival to the end of its exchange; _count is the number of requests",
    labelNames: ["method", "route", "status"] as const,
    buckets: latencyBuckets,
    registers: [registry]
  })
  const rpcDuration = new Histogram({
    name: "rpc_server_duration_seconds",
    help:
      "TodoService calls (Connect, gRPC-Web, gRPC) by service, method, protocol and code (Connect's names: ok, invalid_argument, ...); _count is the number of calls",
    labelNames: ["service", "method", "protocol", "code"] as const,
    buckets: latencyBuckets,
    registers: [registry]
  })
  const http = childTree(httpDuration)
  const rpc = childTree(rpcDuration)

  if (poolStats !== undefined) {
    const read = () => Effect.runSync(poolStats)
    new Gauge({
      name: "db_client_connections",
      help: "The database pool's open connections, by state: idle, or used by a statement or transaction",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const stats = read()
        this.set({ state: "idle" }, stats.idle)
        this.set({ state: "used" }, stats.used)
      }
    })
    new Gauge({
      name: "db_client_connections_max",
      help: "The most connections the database pool opens",
      registers: [registry],
      collect() {
        this.set(read().max)
      }
    })
    new Gauge({
      name: "db_client_connections_pending_requests",
      help: "Statements and transactions waiting for a connection of the database pool",
      registers: [registry],
      collect() {
        this.set(read().pending)
      }
    })
  }

  const observe = (request: NodeRequest, response: NodeResponse) => {
    const start = performance.now()
    const route = classify(request.method, request.url, request.headers["content-type"])
    const call = route.rpc
    const answer = call === undefined ? undefined : recordRpcAnswer(response)
    response.once("close", () => {
      const seconds = (performance.now() - start) / 1_000
      http(route.method, route.route, response.headersSent ? response.statusCode : noAnswer).observe(seconds)
      if (call !== undefined) {
        rpc(call.service, call.method, call.protocol, rpcCode(call, response, answer!)).observe(seconds)
      }
    })
  }

  return { observe, render: () => registry.metrics(), contentType: registry.contentType }
}
