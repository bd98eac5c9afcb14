import { readFileSync, writeFileSync } from "node:fs"

export interface Memory {
  /** Resident set size now, in MiB. */
  readonly rssMiB: number
  /** The highest resident set size since start (or since the last reset), in MiB. */
  readonly peakRssMiB: number
}

const kib = (status: string, field: string): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)
  if (match === null) throw new Error(`no ${field} in /proc status`)
  return Number(match[1])
}

/** VmRSS and VmHWM of one process, from /proc/<pid>/status (Linux). */
export const memoryOf = (pid: number): Memory => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return { rssMiB: kib(status, "VmRSS") / 1024, peakRssMiB: kib(status, "VmHWM") / 1024 }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0: writing 5 to clear_refs). */
export const resetPeak = (pid: number): void => writeFileSync(`/proc/${pid}/clear_refs`, "5")
