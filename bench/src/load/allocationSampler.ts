// What a server allocates per request, and where: V8's sampling heap profiler, driven over the
// inspector of a server started with `--inspect=127.0.0.1:<port>` (`inspectorArgs` below). It is
// kept on while the requests run and told to keep what minor and major collections freed: a
// request's garbage is nearly all it allocates, and without those flags the profile holds only
// what is still alive at the end. Optimized code allocates less than code still warming up
// (escape analysis), so the requests are sampled after a warm-up of their own.

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

/** Bytes per answered request, in total and for the largest allocators. */
export interface AllocationSample {
  readonly requests: number
  readonly bytesPerRequest: number
  readonly byPackage: ReadonlyArray<{ readonly name: string; readonly bytesPerRequest: number }>
  readonly byFunction: ReadonlyArray<{ readonly name: string; readonly bytesPerRequest: number }>
  /** With `callersOf`: the allocations of the functions it matches, by the calls that led to them (innermost first). */
  readonly callers?: ReadonlyArray<{ readonly name: string; readonly bytesPerRequest: number }>
}

/** Node's flag for a server the sampler can drive. */
export const inspectorArgs = (port: number): ReadonlyArray<string> => [`--inspect=127.0.0.1:${port}`]

/** A sample every 512 bytes allocated, on average: fine for a request of a few dozen KB, cheap enough under load. */
const samplingInterval = 512

const inspector = async (port: number) => {
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
    if (message.id === undefined) return
    waiting.get(message.id)?.(message.result)
    waiting.delete(message.id)
  })
  return {
    send: (command: string, params: object = {}) =>
      new Promise<unknown>((resolve) => {
        const id = ++lastId
        waiting.set(id, resolve)
        socket.send(JSON.stringify({ id, method: command, params }))
      }),
    close: () => socket.close()
  }
}

const packageOf = (url: string) => {
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (dependency !== null) return dependency[1]!
  if (url.startsWith("node:")) return "node"
  const ours = /\/((?:packages|apps|bench)\/[^/]+)\//.exec(url)
  return ours !== null ? ours[1]! : url === "" ? "(native)" : url
}

const placeOf = (frame: CallFrame) =>
  `${frame.functionName || "(anonymous)"} ${
    frame.url.replace(/.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "").replace(
      /^file:\/\/.*?\/((?:packages|apps|bench)\/)/,
      "$1"
    )
  }:${frame.lineNumber + 1}`

const largest = (totals: Map<string, number>, requests: number, count: number) =>
  [...totals].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, bytes]) => ({
    name,
    bytesPerRequest: bytes / requests
  }))

/**
 * Runs `load(requests / 2)` to warm up, then samples the server's allocations over
 * `load(requests)`; `load` sends that many requests and resolves to how many were answered.
 */
export const sampleAllocations = async (
  inspectorPort: number,
  requests: number,
  load: (amount: number) => Promise<number>,
  options: { readonly top?: number; readonly callersOf?: RegExp } = {}
): Promise<AllocationSample> => {
  const top = options.top ?? 20
  const session = await inspector(inspectorPort)
  try {
    await load(Math.max(1000, Math.round(requests / 2)))
    await session.send("HeapProfiler.enable")
    await session.send("HeapProfiler.startSampling", {
      samplingInterval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true
    })
    const answered = await load(requests)
    const { profile } = (await session.send("HeapProfiler.stopSampling")) as { profile: { head: SamplingNode } }
    const byFunction = new Map<string, number>()
    const byPackage = new Map<string, number>()
    const callers = new Map<string, number>()
    let total = 0
    const add = (totals: Map<string, number>, key: string, bytes: number) =>
      totals.set(key, (totals.get(key) ?? 0) + bytes)
    const walk = (node: SamplingNode, path: ReadonlyArray<string>) => {
      const place = placeOf(node.callFrame)
      if (node.selfSize > 0) {
        add(byFunction, place, node.selfSize)
        add(byPackage, packageOf(node.callFrame.url), node.selfSize)
        if (options.callersOf?.test(place)) {
          add(callers, [place, ...path.slice(-6).reverse()].join(" < "), node.selfSize)
        }
        total += node.selfSize
      }
      // The calls that led here are kept only when asked for: a path per node is a copy per node.
      const below = options.callersOf === undefined ? path : [...path, place]
      for (const child of node.children) walk(child, below)
    }
    walk(profile.head, [])
    return {
      requests: answered,
      bytesPerRequest: total / answered,
      byPackage: largest(byPackage, answered, top),
      byFunction: largest(byFunction, answered, top),
      ...(options.callersOf === undefined ? {} : { callers: largest(callers, answered, top) })
    }
  } finally {
    session.close()
  }
}
