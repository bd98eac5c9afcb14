import { readdirSync, readFileSync } from "node:fs"
import { cpuMillisOf } from "./cpuTime.ts"

const ticksPerSecond = 100

/** Busy and total CPU time of the whole machine so far, in milliseconds (Linux /proc/stat). */
const machine = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
  return { busy: ((total - idle) * 1000) / ticksPerSecond, total: (total * 1000) / ticksPerSecond }
}

/**
 * CPU time used so far by PostgreSQL: every process named `postgres`, with the time of the ones
 * that ended (the postmaster reaps its backends, and their time moves to it). Without that, a
 * backend that ended during a run took its whole time out of the sum, and the run showed a
 * negative share for PostgreSQL and that time as "other".
 */
const postgres = () => {
  let sum = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === "postgres") {
        sum += cpuMillisOf(Number(entry), { reapedChildren: true })
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return sum
}

export interface CpuSnapshot {
  readonly machine: { readonly busy: number; readonly total: number }
  readonly postgres: number
  readonly server: number
}

export const snapshot = (serverPid: number): CpuSnapshot => ({
  machine: machine(),
  postgres: postgres(),
  server: cpuMillisOf(serverPid)
})

export interface CpuShares {
  readonly serverMillis: number
  readonly postgresMillis: number
  /** Share of the machine's capacity used by PostgreSQL: near 100, the database was the bottleneck. */
  readonly postgresPercent: number
  /** Share of the machine's capacity used by processes other than the server, PostgreSQL and the load generator. */
  readonly otherPercent: number
}

/** What the interval between two snapshots cost, given the load generator's own CPU time. */
export const sharesBetween = (before: CpuSnapshot, after: CpuSnapshot, loadgenMillis: number): CpuShares => {
  const serverMillis = after.server - before.server
  const postgresMillis = after.postgres - before.postgres
  const busy = after.machine.busy - before.machine.busy
  const total = after.machine.total - before.machine.total
  const other = Math.max(0, busy - serverMillis - postgresMillis - loadgenMillis)
  const percent = (millis: number) => (total > 0 ? (millis / total) * 100 : 0)
  return { serverMillis, postgresMillis, postgresPercent: percent(postgresMillis), otherPercent: percent(other) }
}
