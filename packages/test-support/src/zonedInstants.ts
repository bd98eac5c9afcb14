/**
 * An independent reading of wall-clock times (issue 36's time-zone properties), with Intl alone and
 * none of the project's code: what a booking's instants must be, whatever the store computes. The
 * repository contract's properties keep their own copy (core's tests import no other package).
 */

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatter = (zone: string) => {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(zone, f)
  }
  return f
}

/** The wall clock of `zone` at the instant `ms`, as `YYYY-MM-DDTHH:MM:SS`. */
export const wallClockIn = (zone: string, ms: number): string => {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  return `${parts["year"]}-${parts["month"]}-${parts["day"]}T${parts["hour"]}:${parts["minute"]}:${parts["second"]}`
}

const minute = 60_000

/**
 * The instant `local` names in `zone`, by search: every instant within 15 hours whose wall clock
 * shows `local`, the first of them (an overlap's first occurrence); when none does (a gap), the
 * wall clock read with the offset in force just before the change, found by bisection.
 */
export const independentInstant = (zone: string, local: string): number => {
  const wall = Date.parse(`${local}Z`)
  const offsets = new Set<number>()
  for (let t = wall - 15 * 3_600_000; t <= wall + 15 * 3_600_000; t += 15 * minute) {
    offsets.add(Date.parse(`${wallClockIn(zone, t)}Z`) - t)
  }
  const shown = [...offsets].map((offset) => wall - offset).filter((t) => wallClockIn(zone, t) === local)
  if (shown.length > 0) return Math.min(...shown)
  // A gap: the clock goes from before `local` to after it at one instant.
  let [low, high] = [wall - 15 * 3_600_000, wall + 15 * 3_600_000]
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2)
    if (wallClockIn(zone, middle) < local) low = middle
    else high = middle
  }
  // The offset read at a whole second: the wall clock shows whole seconds, so an offset read at
  // `low` itself would carry its milliseconds into the instant.
  const before = low - (((low % 1000) + 1000) % 1000)
  return wall - (Date.parse(`${wallClockIn(zone, before)}Z`) - before)
}
