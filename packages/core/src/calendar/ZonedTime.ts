import type { LocalDateTime } from "../domain/LocalDateTime.ts"

// Formatting with Intl is slow, and a feed turns several instants per event into wall-clock times.
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
const offsetFromIntl = (instant: number, timeZone: string): number => {
  const parts = formatterOf(timeZone).formatToParts(new Date(instant))
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value)
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) -
    instant
}

const offsetAt = (instant: number, timeZone: string): number => {
  const quarter = Math.floor(instant / quarterHour)
  let zone = offsets.get(timeZone)
  if (zone === undefined) offsets.set(timeZone, zone = new Map())
  let offset = zone.get(quarter)
  if (offset === undefined) {
    if (cachedOffsets >= maxCachedOffsets) {
      offsets.clear()
      offsets.set(timeZone, zone = new Map())
      cachedOffsets = 0
    }
    offset = offsetFromIntl(quarter * quarterHour, timeZone)
    zone.set(quarter, offset)
    cachedOffsets++
  }
  return offset
}

/** The wall-clock fields of `instant` in `timeZone`, as a local date-time. */
export const localAt = (instant: number, timeZone: string): LocalDateTime =>
  new Date(instant + offsetAt(instant, timeZone)).toISOString().slice(0, 19) as LocalDateTime

const asUtc = (local: LocalDateTime) => Date.parse(`${local}Z`)

/**
 * The instant a wall-clock time of `timeZone` names. A time skipped by a change to summer time is
 * read with the offset before it (02:30 on the last Sunday of March in Paris is 03:30 CEST), a
 * repeated one as its first occurrence, as RFC 5545 §3.3.5 says.
 */
export const instantOf = (local: LocalDateTime, timeZone: string): number => {
  const wall = asUtc(local)
  const before = offsetAt(wall - 86_400_000, timeZone)
  const after = offsetAt(wall + 86_400_000, timeZone)
  const early = wall - Math.max(before, after)
  const late = wall - Math.min(before, after)
  for (const candidate of [early, late]) if (localAt(candidate, timeZone) === local) return candidate
  return wall - before
}

/** `minutes` after a wall-clock time, as the wall clock then reads (an instant's arithmetic, not the clock's). */
export const addMinutes = (local: LocalDateTime, minutes: number, timeZone: string): LocalDateTime =>
  localAt(instantOf(local, timeZone) + minutes * 60_000, timeZone)
