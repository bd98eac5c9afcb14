// What a request costs a server that does nothing, on this host: the same tiny JSON answer
// (`GET /ping` → `{"ok":true}`) from a bare node:http server, from a bare Effect HttpApi server
// (one group, one endpoint, no middleware, on @effect/platform-node as the project serves), and
// from the project's own `GET /health/live` when a URL and PID are given. Each server is loaded in
// turn by autocannon in this process; the figure reported is the server's CPU time per answered
// request (from /proc), which load on a shared machine disturbs least. Where `taskset` exists, each
// server is pinned to the first CPU and the load generator to the second: left to the scheduler,
// the two share both cores, and the server's CPU per request then also counts waking the load
// generator on every answer, more the slower the server (the project's per-request figure was
// about a third higher unpinned). Usage:
//   node src/tools/frameworkFloor.ts [seconds=8] [connections=50] [project-url project-pid]
import { execFileSync, fork } from "node:child_process"
import * as Http from "node:http"
import autocannon from "autocannon"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { freePort } from "@club/test-support"
import { cpuMillisOf } from "../process/cpuTime.ts"

const answer = { ok: true }

const serveNode = (port: number) =>
  Http.createServer((_request, response) => {
    const body = JSON.stringify(answer)
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    response.end(body)
  }).listen(port, "127.0.0.1", () => process.send?.("listening"))

class Ping extends HttpApiGroup.make("ping").add(
  HttpApiEndpoint.get("ping", "/ping", { success: Schema.Struct({ ok: Schema.Boolean }) })
) {}
class FloorApi extends HttpApi.make("floor").add(Ping) {}

const serveHttpApi = (port: number) => {
  const handlers = HttpApiBuilder.group(FloorApi, "ping", (h) => h.handle("ping", () => Effect.succeed(answer)))
  // Without the per-request log, as the project serves at its default log level.
  const server = HttpRouter.serve(HttpApiBuilder.layer(FloorApi).pipe(Layer.provide(handlers)), {
    disableLogger: true,
    disableListenLog: true
  }).pipe(
    Layer.provide(NodeHttpServer.layer(() => Http.createServer(), { port, host: "127.0.0.1" }))
  )
  NodeRuntime.runMain(Layer.launch(Layer.tap(server, () => Effect.sync(() => process.send?.("listening")))))
}

/** Pins a process (all its threads) to one CPU; false where `taskset` is missing or the machine has one CPU. */
const pin = (pid: number, cpu: number): boolean => {
  try {
    execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

const measure = async (name: string, url: string, pid: number, seconds: number, connections: number) => {
  pin(pid, 0)
  await autocannon({ url, connections, duration: 2 })
  const before = cpuMillisOf(pid)
  const result = await autocannon({ url, connections, duration: seconds })
  const cpuMillis = cpuMillisOf(pid) - before
  const answered = Number(result.statusCodeStats?.["200"]?.count ?? 0)
  console.log(
    `${name.padEnd(34)} ${(answered / result.duration).toFixed(0).padStart(7)} req/s  ` +
      `cpu ${((cpuMillis * 1000) / answered).toFixed(1).padStart(6)} µs/req  p99 ${result.latency.p99} ms`
  )
}

const startChild = async (mode: string) => {
  const port = await freePort()
  const child = fork(import.meta.filename, [mode, String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] })
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve())
    child.once("exit", (code) => reject(new Error(`${mode} exited with ${code}`)))
  })
  return { child, url: `http://127.0.0.1:${port}/ping` }
}

const [first, second, third, fourth] = process.argv.slice(2)
if (first === "serve-node") serveNode(Number(second))
else if (first === "serve-httpapi") serveHttpApi(Number(second))
else {
  const seconds = Number(first ?? "8")
  const connections = Number(second ?? "50")
  console.log(pin(process.pid, 1) ? "servers on CPU 0, load generator on CPU 1" : "not pinned (no taskset)")
  for (const mode of ["serve-node", "serve-httpapi"]) {
    const { child, url } = await startChild(mode)
    try {
      await measure(
        mode === "serve-node" ? "node:http" : "Effect HttpApi, one endpoint",
        url,
        child.pid!,
        seconds,
        connections
      )
    } finally {
      child.kill("SIGTERM")
    }
  }
  if (third !== undefined && fourth !== undefined) {
    await measure("the project's GET /health/live", `${third}/health/live`, Number(fourth), seconds, connections)
  }
}
