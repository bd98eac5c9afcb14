import type { LocalDateTime } from "./LocalDateTime.ts"

// Formatting with Intl is slow, and a feed or a series turns many instants into wall-clock times.
// A zone's offset changes only at quarter hours (every transition in the zone database falls on
// one), so it is asked of Intl once per quarter hour and zone, and kept; the cache is bounded.
const quarterHour = 900_000
const maxCachedOffsets = 100_000
const offsets = new Map<string, Map<number, number>>()
let cachedOffsets = 0
const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterOf = (timeZone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** The wall clock of `timeZone` minus UTC at `instant`, in milliseconds, as Intl reads it. */
const offsetFromIntl = (timeZone: string, instant: number): number => {
  const parts = formatterOf(timeZone).formatToParts(new Date(instant))
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value)
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) -
    instant
}

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `epochMs`, in ms. */
export const zoneOffsetAt = (timeZone: string, epochMs: number): number => {
  const quarter = Math.floor(epochMs / quarterHour)
  let zone = offsets.get(timeZone)
  if (zone === undefined) offsets.set(timeZone, zone = new Map())
  let offset = zone.get(quarter)
  if (offset === undefined) {
    if (cachedOffsets >= maxCachedOffsets) {
      offsets.clear()
      offsets.set(timeZone, zone = new Map())
      cachedOffsets = 0
    }
    offset = offsetFromIntl(timeZone, quarter * quarterHour)
    zone.set(quarter, offset)
    cachedOffsets++
  }
  return offset
}

/** The wall-clock time in `timeZone` at the instant `epochMs`, to the second. */
export const wallClockAt = (timeZone: string, epochMs: number): LocalDateTime =>
  new Date(epochMs + zoneOffsetAt(timeZone, epochMs)).toISOString().slice(0, 19) as LocalDateTime

/** `local` moved by whole days on the calendar, the time of day kept. */
export const plusDays = (local: LocalDateTime, days: number): LocalDateTime =>
  new Date(Date.parse(`${local}Z`) + days * 86_400_000).toISOString().slice(0, 19) as LocalDateTime

/** `local` moved by whole seconds. */
export const plusSeconds = (local: LocalDateTime, seconds: number): LocalDateTime =>
  new Date(Date.parse(`${local}Z`) + seconds * 1000).toISOString().slice(0, 19) as LocalDateTime

/**
 * The instant (epoch ms) at which `timeZone`'s wall clock shows `local`. A time the clock skips
 * (spring forward) or shows twice (fall back) is read with the smaller of the two offsets around
 * it (standard time in the northern zones), as PostgreSQL's `AT TIME ZONE` reads it.
 */
export const instantOf = (timeZone: string, local: LocalDateTime): number => {
  const asUtc = Date.parse(`${local}Z`)
  const offsets = [...new Set([zoneOffsetAt(timeZone, asUtc - 86_400_000), zoneOffsetAt(timeZone, asUtc + 86_400_000)])]
  const shown = offsets.map((offset) => asUtc - offset).filter((instant) => wallClockAt(timeZone, instant) === local)
  return shown.length === 1 ? shown[0]! : asUtc - Math.min(...offsets)
}
