// Bytes a server allocates per request, and where: V8's sampling heap profiler, kept on while a
// scenario's requests run and told to keep the objects that minor and major GCs collected (the
// garbage of a request is most of what it allocates; without those flags the profile shows only
// what is still alive at the end). The server must run with `--inspect=127.0.0.1:<port>`; it is
// driven over the inspector's WebSocket and loaded by autocannon from this process, after a
// warm-up that is not sampled. Prints the bytes per request, then by package and by function.
// The sampling interval makes the figures estimates: compare runs of the same interval. Usage:
//   node src/tools/allocationsPerRequest.ts <inspector-port> <url> [requests=5000] [token] [METHOD] [body]
import autocannon from "autocannon"

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}
interface SamplingNode {
  readonly callFrame: CallFrame
  readonly selfSize: number
  readonly children: ReadonlyArray<SamplingNode>
}

const [port, url, requestsText = "5000", token, method = "GET", body] = process.argv.slice(2)
if (port === undefined || url === undefined) {
  console.error("usage: allocationsPerRequest.ts <inspector-port> <url> [requests] [token] [METHOD] [body]")
  process.exit(2)
}
const requests = Number(requestsText)

const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as ReadonlyArray<
  { readonly webSocketDebuggerUrl: string }
>
const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl)
await new Promise((resolve, reject) => {
  socket.addEventListener("open", resolve, { once: true })
  socket.addEventListener("error", reject, { once: true })
})
let lastId = 0
const waiting = new Map<number, (result: unknown) => void>()
socket.addEventListener("message", (event) => {
  const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
  if (message.id !== undefined) waiting.get(message.id)?.(message.result)
})
const send = (command: string, params: object = {}) =>
  new Promise<unknown>((resolve) => {
    const id = ++lastId
    waiting.set(id, resolve)
    socket.send(JSON.stringify({ id, method: command, params }))
  })

const load = (amount: number) =>
  autocannon({
    url,
    method,
    connections: 8,
    amount,
    headers: {
      "content-type": "application/json",
      ...(token === undefined || token === "" ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body })
  })

await load(Math.max(1000, requests / 2))
await send("HeapProfiler.enable")
await send("HeapProfiler.startSampling", {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true
})
const result = await load(requests)
const { profile } = (await send("HeapProfiler.stopSampling")) as { profile: { head: SamplingNode } }
socket.close()

const packageOf = (frameUrl: string) => {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(frameUrl)
  if (match !== null) return match[1]!
  if (frameUrl.startsWith("node:")) return "node"
  const ours = /\/((?:packages|apps)\/[^/]+)\//.exec(frameUrl)
  return ours !== null ? ours[1]! : frameUrl === "" ? "(native)" : frameUrl
}
const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
let total = 0
const add = (into: Map<string, number>, key: string, bytes: number) => into.set(key, (into.get(key) ?? 0) + bytes)
const walk = (node: SamplingNode) => {
  if (node.selfSize > 0) {
    const frame = node.callFrame
    const where = frame.url.replace(/.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "").replace(
      /^file:\/\/.*?\/((?:packages|apps)\/)/,
      "$1"
    )
    add(byFunction, `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`, node.selfSize)
    add(byPackage, packageOf(frame.url), node.selfSize)
    total += node.selfSize
  }
  node.children.forEach(walk)
}
walk(profile.head)

const answered = result.requests.total
const perRequest = (bytes: number) => String(Math.round(bytes / answered)).padStart(8)
const top = (into: Map<string, number>, count: number) =>
  [...into].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, bytes]) => `${perRequest(bytes)}  ${key}`)
console.log(`${answered} requests (${result.non2xx} not 2xx); bytes allocated per request: ${perRequest(total).trim()}`)
console.log("\nby package (bytes per request)")
console.log(top(byPackage, 20).join("\n"))
console.log("\nby function (bytes per request)")
console.log(top(byFunction, Number(process.env["TOP"] ?? 40)).join("\n"))
