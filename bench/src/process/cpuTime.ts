import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/**
 * User plus system CPU time a process has used so far, in milliseconds (Linux /proc/<pid>/stat).
 * With `reapedChildren`, also that of its children that ended and that it waited for: a child's
 * time moves there when it ends, so a sum over a family of processes (PostgreSQL's backends and
 * the postmaster that reaps them) keeps counting a backend that ended between two readings.
 */
export const cpuMillisOf = (pid: number, options?: { readonly reapedChildren?: boolean }): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  // Fields after the command name, which is in parentheses and may hold spaces: utime, stime,
  // cutime and cstime are the 14th to the 17th fields of the line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const own = Number(fields[11]) + Number(fields[12])
  const children = options?.reapedChildren === true ? Number(fields[13]) + Number(fields[14]) : 0
  return ((own + children) * 1000) / ticksPerSecond
}
