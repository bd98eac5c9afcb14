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
 * The instant (epoch ms) at which `timeZone`'s wall clock shows `local`, read as RFC 5545 §3.3.5
 * and Temporal's "compatible" disambiguation say: a time the clock skips (spring forward) is read
 * with the offset before the skip (02:30 on the last Sunday of March in Paris is 03:30 CEST), a
 * time it shows twice (fall back) is its first occurrence. The one rule of every booking, conflict
 * and feed (the database's `club_instant`, migration 0023, is the same).
 */
export const instantOf = (timeZone: string, local: LocalDateTime): number => {
  const wall = Date.parse(`${local}Z`)
  // Transitions are days apart, so the offsets a day before and after are the two around `local`.
  const before = zoneOffsetAt(timeZone, wall - 86_400_000)
  const after = zoneOffsetAt(timeZone, wall + 86_400_000)
  // The larger offset gives the earlier instant: tried first, it is an overlap's first occurrence.
  for (const offset of [Math.max(before, after), Math.min(before, after)]) {
    if (wallClockAt(timeZone, wall - offset) === local) return wall - offset
  }
  return wall - before
}
