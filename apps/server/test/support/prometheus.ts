/**
 * The Prometheus text format (version 0.0.4), read as the specification writes it: `# HELP` and
 * `# TYPE` lines, and samples `name{label="value",...} value [timestamp]`, label values escaped
 * with `\\`, `\"` and `\n`.
 */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Exposition {
  readonly samples: ReadonlyArray<Sample>
  /** `# TYPE` of each metric family. */
  readonly types: ReadonlyMap<string, string>
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*/u
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*/u

/** As Prometheus reads a value (Go's ParseFloat): `NaN` and `Inf` in any case (prom-client writes `Nan`). */
const parseValue = (text: string): number => {
  const lower = text.toLowerCase()
  if (lower === "+inf" || lower === "inf") return Infinity
  if (lower === "-inf") return -Infinity
  if (lower === "nan") return NaN
  const value = Number(text)
  if (text === "" || Number.isNaN(value)) throw new Error(`not a sample value: ${JSON.stringify(text)}`)
  return value
}

const parseLabels = (line: string, start: number): { labels: Record<string, string>; end: number } => {
  const labels: Record<string, string> = {}
  let at = start
  while (line[at] !== "}") {
    const name = labelName.exec(line.slice(at))?.[0]
    if (name === undefined || line[at + name.length] !== "=" || line[at + name.length + 1] !== "\"") {
      throw new Error(`bad label at ${at}: ${line}`)
    }
    at += name.length + 2
    let value = ""
    while (line[at] !== "\"") {
      if (at >= line.length) throw new Error(`unterminated label value: ${line}`)
      if (line[at] === "\\") {
        const escaped = line[at + 1]
        value += escaped === "n" ? "\n" : escaped
        at += 2
      } else {
        value += line[at]
        at++
      }
    }
    if (name in labels) throw new Error(`label ${name} twice: ${line}`)
    labels[name] = value
    at++
    if (line[at] === ",") at++
  }
  return { labels, end: at + 1 }
}

export const parseExposition = (text: string): Exposition => {
  const samples: Array<Sample> = []
  const types = new Map<string, string>()
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue
    if (line.startsWith("#")) {
      const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/u.exec(line)
      if (type !== null) types.set(type[1]!, type[2]!)
      continue
    }
    const name = metricName.exec(line)?.[0]
    if (name === undefined) throw new Error(`not a sample: ${line}`)
    let rest = line.slice(name.length)
    let labels: Record<string, string> = {}
    if (rest.startsWith("{")) {
      const parsed = parseLabels(rest, 1)
      labels = parsed.labels
      rest = rest.slice(parsed.end)
    }
    const [value, ...timestamp] = rest.trim().split(/\s+/u)
    if (timestamp.length > 1) throw new Error(`not a sample: ${line}`)
    samples.push({ name, labels, value: parseValue(value ?? "") })
  }
  return { samples, types }
}

/** A sample's identity: its name and labels, in a stable order. */
export const seriesKey = (name: string, labels: Readonly<Record<string, string>>): string =>
  `${name}{${Object.keys(labels).sort().map((key) => `${key}=${JSON.stringify(labels[key])}`).join(",")}}`

/** The samples of `name` whose labels include `where`. */
export const samplesOf = (exposition: Exposition, name: string, where: Readonly<Record<string, string>> = {}) =>
  exposition.samples.filter((sample) =>
    sample.name === name && Object.entries(where).every(([key, value]) => sample.labels[key] === value)
  )

/** What each series of `name` moved by between two scrapes (series absent before count from 0); unmoved ones left out. */
export const deltas = (before: Exposition, after: Exposition, name: string): Map<string, number> => {
  const earlier = new Map(samplesOf(before, name).map((sample) => [seriesKey(name, sample.labels), sample.value]))
  const moved = new Map<string, number>()
  for (const sample of samplesOf(after, name)) {
    const key = seriesKey(name, sample.labels)
    const delta = sample.value - (earlier.get(key) ?? 0)
    if (delta !== 0) moved.set(key, delta)
  }
  return moved
}
