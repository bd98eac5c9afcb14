import { readFileSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"

const busyAndTotal = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
}

/**
 * Waits until the machine has been mostly idle for a second (between runs nothing of the bench is
 * busy), so that a measurement does not start while some other job holds the CPU. Gives up after
 * `timeoutMs` (BENCH_QUIET_WAIT seconds, 20: on a machine busy throughout, a shorter wait only
 * saves time); the run then goes ahead, and its "other CPU" column tells how disturbed it was.
 */
export const waitForQuietMachine = async (
  maxBusyPercent = 15,
  timeoutMs = Number(process.env["BENCH_QUIET_WAIT"] ?? 20) * 1000
): Promise<number> => {
  const deadline = Date.now() + timeoutMs
  let busyPercent = 100
  while (Date.now() < deadline) {
    const before = busyAndTotal()
    await sleep(1_000)
    const after = busyAndTotal()
    busyPercent = ((after.busy - before.busy) / Math.max(1, after.total - before.total)) * 100
    if (busyPercent <= maxBusyPercent) return busyPercent
  }
  console.log(`  (the machine stayed ${busyPercent.toFixed(0)}% busy; measuring anyway)`)
  return busyPercent
}
