// What the request metrics cost one request, in isolation: the server's own observer
// (apps/server/src/metrics) run on stand-ins for Node's request and response, classified,
// timed and recorded in prom-client's histograms, and what one scrape takes. Usage:
//   node src/tools/observeCost.ts [requests=300000]
import { EventEmitter } from "node:events"
import { performance } from "node:perf_hooks"

interface ServerMetrics {
  readonly observe: (request: never, response: never) => void
  readonly render: () => Promise<string>
}

// The server's sources, loaded as they are (Node strips their types); by a computed path, so that
// the bench's type check stays within bench/.
const source = (path: string) =>
  import(new URL(`../../../apps/server/src/observability/metrics/${path}`, import.meta.url).href)
const { makeRouteClassifier } = await source("Routes.ts")
const { makeServerMetrics } = await source("ServerMetrics.ts")

/** The API router's settings (apps/server/src/Server.ts). */
const routerConfig = { maxParamLength: 2_400, caseSensitive: true }
const metrics: ServerMetrics = makeServerMetrics(makeRouteClassifier(routerConfig), undefined)
const requests = Number(process.argv[2] ?? 300_000)

const exchange = (method: string, url: string, contentType: string | undefined) => {
  const response = Object.assign(new EventEmitter(), {
    headersSent: true,
    statusCode: 200,
    writableFinished: true,
    write: () => true,
    end: () => undefined,
    addTrailers: () => undefined,
    getHeader: () => undefined
  })
  const request = { method, url, headers: contentType === undefined ? {} : { "content-type": contentType } }
  return { request: request as never, response: response as never as EventEmitter }
}

const measure = (title: string, method: string, url: (i: number) => string, contentType?: string) => {
  for (let i = 0; i < 20_000; i++) {
    const { request, response } = exchange(method, url(i), contentType)
    metrics.observe(request, response as never)
    response.emit("close")
  }
  let observing = 0
  let standIns = 0
  for (let i = 0; i < requests; i++) {
    const started = performance.now()
    const { request, response } = exchange(method, url(i), contentType)
    const built = performance.now()
    metrics.observe(request, response as never)
    response.emit("close")
    observing += performance.now() - built
    standIns += built - started
  }
  console.log(
    `${title.padEnd(40)} ${((observing / requests) * 1000).toFixed(2).padStart(6)} µs a request` +
      `  (building the stand-ins: ${((standIns / requests) * 1000).toFixed(2)} µs, not counted)`
  )
}

measure("GET /session/{id}", "GET", (i) => `/session/${1 + (i % 5_000)}`)
measure(
  "GET /athletes/athletes/{id}/session/between",
  "GET",
  (i) => `/athletes/athletes/${1 + (i % 1_000)}/session/between/2024-01-01/2024-12-31`
)
measure("POST /todo.TodoService/ListTasks (Connect)", "POST", () => "/todo.TodoService/ListTasks", "application/json")
measure("GET of an unknown path", "GET", (i) => `/no/such/path/${i}`)
const started = performance.now()
for (let i = 0; i < 50; i++) await metrics.render()
console.log(`${"a scrape (render)".padEnd(40)} ${((performance.now() - started) / 50).toFixed(2).padStart(6)} ms`)
