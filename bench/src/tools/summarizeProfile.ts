// Summarises a `.cpuprofile` (node --cpu-prof): self time by function and by package, and the
// inclusive time of functions whose name matches a filter. Usage:
//   node src/tools/summarizeProfile.ts <file.cpuprofile> [top=40] [inclusive-filter-regex]
import { readFileSync } from "node:fs"

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<Node>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const [file, topText = "40", filter] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file!, "utf8")) as Profile
const top = Number(topText)

const selfMicros = new Map<number, number>()
profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0)
const byId = new Map(profile.nodes.map((n) => [n.id, n]))

const packageOf = (url: string) => {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (match !== null) return match[1]!
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0]
  if (url === "") return "(native/vm)"
  return url.replace(/^file:\/\/.*\/work\/main\//, "")
}
const fileOf = (url: string) => url.split("/").slice(-2).join("/")
const label = (n: Node) =>
  `${n.callFrame.functionName || "(anonymous)"} ${packageOf(n.callFrame.url)}/${fileOf(n.callFrame.url)}:${
    n.callFrame.lineNumber + 1
  }`

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value)
const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
for (const [id, micros] of selfMicros) {
  const node = byId.get(id)!
  add(byFunction, label(node), micros)
  add(byPackage, packageOf(node.callFrame.url), micros)
}

const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`
    )
  }
}
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms`)
print("self time by package", byPackage)
print("self time by function", byFunction)

if (filter !== undefined) {
  // Inclusive time: a sample counts for a function when it appears anywhere on the sample's stack.
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const regex = new RegExp(filter)
  const inclusive = new Map<string, number>()
  for (const [id, micros] of selfMicros) {
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur)!)
      if (regex.test(key) && !seen.has(key)) {
        seen.add(key)
        add(inclusive, key, micros)
      }
    }
  }
  print(`inclusive time of /${filter}/`, inclusive)
}

const callersOf = process.env["CALLERS_OF"]
if (callersOf !== undefined) {
  // Who spends the self time of matching functions: the chain of callers, up to `depth` frames.
  const depth = Number(process.env["CALLER_DEPTH"] ?? "6")
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const regex = new RegExp(callersOf)
  const chains = new Map<string, number>()
  for (const [id, micros] of selfMicros) {
    if (!regex.test(label(byId.get(id)!))) continue
    const chain: Array<string> = []
    for (let cur = parent.get(id); cur !== undefined && chain.length < depth; cur = parent.get(cur)) {
      chain.push(label(byId.get(cur)!))
    }
    add(chains, chain.join("  <  "), micros)
  }
  print(`callers of /${callersOf}/`, chains)
}
