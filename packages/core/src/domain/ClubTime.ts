import type { LocalDateTime } from "./LocalDateTime.ts"

/** The wall-clock time in `timeZone` at the instant `epochMs`, to the second. */
export const wallClockAt = (timeZone: string, epochMs: number): LocalDateTime => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    }).formatToParts(new Date(epochMs)).map((part) => [part.type, part.value])
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}` as LocalDateTime
}

/** `local` moved by whole days on the calendar, the time of day kept. */
export const plusDays = (local: LocalDateTime, days: number): LocalDateTime =>
  new Date(Date.parse(`${local}Z`) + days * 86_400_000).toISOString().slice(0, 19) as LocalDateTime

/** `local` moved by whole seconds. */
export const plusSeconds = (local: LocalDateTime, seconds: number): LocalDateTime =>
  new Date(Date.parse(`${local}Z`) + seconds * 1000).toISOString().slice(0, 19) as LocalDateTime

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `epochMs`, in ms. */
const offsetAt = (timeZone: string, epochMs: number): number => {
  const whole = Math.floor(epochMs / 1000) * 1000
  return Date.parse(`${wallClockAt(timeZone, whole)}Z`) - whole
}

/**
 * The instant (epoch ms) at which `timeZone`'s wall clock shows `local`. A time the clock skips
 * (spring forward) or shows twice (fall back) is read with the smaller of the two offsets around
 * it (standard time in the northern zones), as PostgreSQL's `AT TIME ZONE` reads it.
 */
export const instantOf = (timeZone: string, local: LocalDateTime): number => {
  const asUtc = Date.parse(`${local}Z`)
  const offsets = [...new Set([offsetAt(timeZone, asUtc - 86_400_000), offsetAt(timeZone, asUtc + 86_400_000)])]
  const shown = offsets.map((offset) => asUtc - offset).filter((instant) => wallClockAt(timeZone, instant) === local)
  return shown.length === 1 ? shown[0]! : asUtc - Math.min(...offsets)
}
